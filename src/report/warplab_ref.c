/* SPDX-License-Identifier: BSD-2-Clause */
/* warplab_ref: the published table; see warplab_ref.h for its source. */
#include "report/warplab_ref.h"

/* clang-format off */
static const ws_warplab_ref_row rows[] = {
	{1u << 15, 450.28, 564.20, 78.44, 78.96},
	{1u << 16, 539.55, 710.59, 81.06, 83.37},
	{1u << 17, 657.33, 830.45, 86.17, 86.56},
	{1u << 18, 703.65, 891.63, 86.79, 87.88},
	{1u << 19, 721.23, 923.57, 87.13, 88.89},
	{1u << 20, 734.87, 946.78, 87.19, 87.21},
	{1u << 21, 745.78, 963.22, 86.49, 84.99},
	{1u << 22, 748.88, 969.03, 86.63, 80.44},
	{1u << 23, 754.35, 972.94, 86.53, 72.82},
	{1u << 24, 754.59, 975.18, 87.05, 61.75},
	{1u << 25, 751.38, 976.47, 86.62, 47.09},
};
/* clang-format on */

const char ws_warplab_ref_source[] =
	"WARPLab 7.5.0's published wl_benchmark table (warpproject.org): WARP v3, Gigabit "
	"Ethernet, 9014-byte jumbo frames, Dell Optiplex i7-2600, Windows 7; Avg Transfer Speed";

const ws_warplab_ref_row *ws_warplab_ref(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}
