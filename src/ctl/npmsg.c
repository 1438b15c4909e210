/* npmsg: netperf 2.7's 656-byte control messages; see npmsg.h. Offsets are byte offsets
 * from the start of the message, as in netperf-wire.md §5 and §7. */
#include "ctl/npmsg.h"

#include "util/bytes.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/socket.h>

_Static_assert(sizeof(float) == 4, "netperf's floats are IEEE-754 32-bit");
_Static_assert(sizeof(double) == 8, "the legacy results carry an IEEE-754 64-bit double");

static void put_u32(uint8_t *m, size_t off, uint32_t v)
{
	ws_put_be32(m + off, v);
}

static void put_i32(uint8_t *m, size_t off, int32_t v)
{
	ws_put_be32(m + off, (uint32_t)v);
}

static void put_f32(uint8_t *m, size_t off, float f)
{
	uint32_t v;
	memcpy(&v, &f, sizeof(v));
	ws_put_be32(m + off, v);
}

static uint32_t get_u32(const uint8_t *m, size_t off)
{
	return ws_get_be32(m + off);
}

static int32_t get_i32(const uint8_t *m, size_t off)
{
	uint32_t v = ws_get_be32(m + off);
	int32_t s;
	memcpy(&s, &v, sizeof(s)); /* two's complement without an out-of-range conversion */
	return s;
}

static float get_f32(const uint8_t *m, size_t off)
{
	uint32_t v = ws_get_be32(m + off);
	float f;
	memcpy(&f, &v, sizeof(f));
	return f;
}

static void put_u64(uint8_t *m, size_t off, uint64_t v)
{
	put_u32(m, off, (uint32_t)(v >> 32));
	put_u32(m, off + 4, (uint32_t)v);
}

static uint64_t get_u64(const uint8_t *m, size_t off)
{
	return (uint64_t)get_u32(m, off) << 32 | get_u32(m, off + 4);
}

/* A fixed char[size] field: the text and its NUL, truncated to size-1 characters. */
static void put_str(uint8_t *m, size_t off, size_t size, const char *s)
{
	size_t n = s ? strnlen(s, size - 1) : 0;
	memcpy(m + off, s ? s : "", n);
	memset(m + off + n, 0, size - n);
}

/* Copy a fixed char[size] field into out[size], always terminated: a field without a NUL
 * keeps its first size-1 characters (netperf's own fields are always terminated; a peer
 * that fills one to the brim gets truncated, never a read past the field). */
static void get_str(const uint8_t *m, size_t off, size_t size, char *out)
{
	size_t n = strnlen((const char *)m + off, size - 1);
	memcpy(out, m + off, n);
	memset(out + n, 0, size - n);
}

static void header(uint8_t *m, int32_t type, int32_t word1)
{
	memset(m, 0, WS_NP_MSG_LEN);
	put_i32(m, 0, type);
	put_i32(m, 4, word1);
}

int32_t ws_np_type(const uint8_t *msg)
{
	return get_i32(msg, 0);
}

int32_t ws_np_word1(const uint8_t *msg)
{
	return get_i32(msg, 4);
}

int ws_np_conv_words(int32_t type)
{
	switch (type) {
	case WS_NP_DO_OMNI:
		return 2 + 38;
	case WS_NP_OMNI_RESPONSE:
		return 2 + 18;
	case WS_NP_OMNI_RESULTS:
		return 2 + 27;
	case WS_NP_PASSPHRASE:
	case WS_NP_SYSINFO_RESPONSE:
		return 2;
	default: /* also every legacy message */
		return WS_NP_WORDS;
	}
}

static const struct {
	int32_t type;
	const char *name;
} type_names[] = {
	{WS_NP_DEBUG_ON, "DEBUG_ON"}, {WS_NP_DEBUG_OFF, "DEBUG_OFF"},
	{WS_NP_DEBUG_OK, "DEBUG_OK"}, {WS_NP_NODE_IDENTIFY, "NODE_IDENTIFY"},
	{WS_NP_CPU_CALIBRATE, "CPU_CALIBRATE"}, {WS_NP_PASSPHRASE, "PASSPHRASE"},
	{10, "DO_TCP_STREAM"}, {13, "DO_TCP_RR"}, {16, "DO_UDP_STREAM"}, {19, "DO_UDP_RR"},
	{34, "DO_TCP_CRR"}, {94, "DO_TCP_MAERTS"}, {300, "DO_TCP_CC"},
	{WS_NP_DO_OMNI, "DO_OMNI"}, {WS_NP_OMNI_RESPONSE, "OMNI_RESPONSE"},
	{WS_NP_OMNI_RESULTS, "OMNI_RESULTS"}, {WS_NP_DO_SYSINFO, "DO_SYSINFO"},
	{WS_NP_SYSINFO_RESPONSE, "SYSINFO_RESPONSE"},
};

int ws_np_is_legacy_request(int32_t type)
{
	switch (type) {
	case 10: case 13: case 16: case 19: case 34: case 94: case 300:
		return 1;
	default:
		return 0;
	}
}

const char *ws_np_type_name(int32_t type)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].type == type)
			return type_names[i].name;
	return "unknown";
}

static int check_port(uint32_t v, const char *what, ws_err *err)
{
	if (v <= 65535)
		return 0;
	return ws_err_set(err, WS_E_PROTO, "netperf %s %u is not a port; 0..65535 is accepted", what,
			  (unsigned)v);
}

static int check_type(const uint8_t *msg, int32_t want, ws_err *err)
{
	int32_t t = ws_np_type(msg);
	if (t == want)
		return 0;
	return ws_err_set(err, WS_E_PROTO, "netperf message type %ld (%s) where %s (%ld) was expected",
			  (long)t, ws_np_type_name(t), ws_np_type_name(want), (long)want);
}

void ws_np_omni_req_defaults(ws_np_omni_req *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	r->send_buf_size = r->recv_buf_size = -1;
	r->send_size = r->receive_size = 0xffffffffu;
	r->send_alignment = r->recv_alignment = 8;
	r->request_size = r->response_size = -1;
	r->send_dirty = r->recv_dirty = r->recv_clean = 0xffffffffu;
	r->socket_prio = r->socket_tos = -1;
}

/* DO_OMNI request: 2 + 38 words converted (bytes 0..159), strings raw from 160. */
void ws_np_encode_omni_req(const ws_np_omni_req *r, uint8_t *msg)
{
	header(msg, WS_NP_DO_OMNI, r->cpu);
	put_i32(msg, 8, r->send_buf_size);
	put_u32(msg, 12, r->send_size);
	put_u32(msg, 16, r->send_alignment);
	put_u32(msg, 20, r->send_offset);
	put_u32(msg, 24, r->send_width);
	put_i32(msg, 28, r->request_size);
	put_i32(msg, 32, r->recv_buf_size);
	put_u32(msg, 36, r->receive_size);
	put_u32(msg, 40, r->recv_alignment);
	put_u32(msg, 44, r->recv_offset);
	put_u32(msg, 48, r->recv_width);
	put_i32(msg, 52, r->response_size);
	put_u32(msg, 56, r->flags);
	put_f32(msg, 60, r->cpu_rate);
	put_i32(msg, 64, r->test_length);
	put_u32(msg, 68, r->so_rcvavoid);
	put_u32(msg, 72, r->so_sndavoid);
	put_u32(msg, 76, r->send_dirty);
	put_u32(msg, 80, r->recv_dirty);
	put_u32(msg, 84, r->recv_clean);
	put_u32(msg, 88, r->data_port);
	put_u32(msg, 92, r->ipfamily);
	put_u32(msg, 96, r->socket_type);
	put_u32(msg, 100, r->protocol);
	put_u32(msg, 104, r->direction);
	put_u32(msg, 108, r->netperf_port);
	put_u32(msg, 112, r->interval_burst);
	put_u32(msg, 116, r->interval_usecs);
	for (int i = 0; i < 4; i++) {
		put_u32(msg, 120 + 4 * (size_t)i, r->netperf_ip[i]);
		put_u32(msg, 136 + 4 * (size_t)i, r->netserver_ip[i]);
	}
	put_i32(msg, 152, r->socket_prio);
	put_i32(msg, 156, r->socket_tos);
	put_str(msg, 160, sizeof(r->cong_control), r->cong_control);
	put_str(msg, 176, sizeof(r->fill_file), r->fill_file);
}

int ws_np_decode_omni_req(const uint8_t *msg, ws_np_omni_req *r, ws_err *err)
{
	int rc;
	memset(r, 0, sizeof(*r));
	if ((rc = check_type(msg, WS_NP_DO_OMNI, err)) < 0)
		return rc;
	r->cpu = ws_np_word1(msg);
	r->send_buf_size = get_i32(msg, 8);
	r->send_size = get_u32(msg, 12);
	r->send_alignment = get_u32(msg, 16);
	r->send_offset = get_u32(msg, 20);
	r->send_width = get_u32(msg, 24);
	r->request_size = get_i32(msg, 28);
	r->recv_buf_size = get_i32(msg, 32);
	r->receive_size = get_u32(msg, 36);
	r->recv_alignment = get_u32(msg, 40);
	r->recv_offset = get_u32(msg, 44);
	r->recv_width = get_u32(msg, 48);
	r->response_size = get_i32(msg, 52);
	r->flags = get_u32(msg, 56);
	r->cpu_rate = get_f32(msg, 60);
	r->test_length = get_i32(msg, 64);
	r->so_rcvavoid = get_u32(msg, 68);
	r->so_sndavoid = get_u32(msg, 72);
	r->send_dirty = get_u32(msg, 76);
	r->recv_dirty = get_u32(msg, 80);
	r->recv_clean = get_u32(msg, 84);
	r->data_port = get_u32(msg, 88);
	r->ipfamily = get_u32(msg, 92);
	r->socket_type = get_u32(msg, 96);
	r->protocol = get_u32(msg, 100);
	r->direction = get_u32(msg, 104);
	r->netperf_port = get_u32(msg, 108);
	r->interval_burst = get_u32(msg, 112);
	r->interval_usecs = get_u32(msg, 116);
	for (int i = 0; i < 4; i++) {
		r->netperf_ip[i] = get_u32(msg, 120 + 4 * (size_t)i);
		r->netserver_ip[i] = get_u32(msg, 136 + 4 * (size_t)i);
	}
	r->socket_prio = get_i32(msg, 152);
	r->socket_tos = get_i32(msg, 156);
	get_str(msg, 160, sizeof(r->cong_control), r->cong_control);
	get_str(msg, 176, sizeof(r->fill_file), r->fill_file);

	if ((rc = check_port(r->data_port, "data port", err)) < 0 ||
	    (rc = check_port(r->netperf_port, "client data port", err)) < 0)
		return rc;
	if (!isfinite(r->cpu_rate) || r->cpu_rate < 0.0f)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r->cpu_rate);
	if (r->test_length == INT32_MIN)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf test length %ld; -2147483647..2147483647 is accepted",
				  (long)r->test_length);
	if (r->ipfamily != 0 && r->ipfamily != 4 && r->ipfamily != 6 && r->ipfamily != 7)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf address family %u; 0 (any), 4, 6 or 7 is accepted",
				  (unsigned)r->ipfamily);
	if (r->direction == 0 || (r->direction & ~(uint32_t)(WS_NP_DIR_SEND | WS_NP_DIR_RECV)))
		return ws_err_set(err, WS_E_PROTO,
				  "netperf direction 0x%x; 0x2 (send), 0x4 (receive) or 0x6 is accepted",
				  (unsigned)r->direction);
	return 0;
}

/* OMNI response: 2 + 18 words converted (bytes 0..79), strings raw from 80. */
void ws_np_encode_omni_rsp(const ws_np_omni_rsp *r, uint8_t *msg)
{
	header(msg, WS_NP_OMNI_RESPONSE, r->serv_errno);
	put_i32(msg, 8, r->recv_buf_size);
	put_i32(msg, 12, r->receive_size);
	put_i32(msg, 16, r->recv_width);
	put_i32(msg, 20, r->send_buf_size);
	put_i32(msg, 24, r->send_size);
	put_i32(msg, 28, r->send_width);
	put_u32(msg, 32, r->flags);
	put_f32(msg, 36, r->cpu_rate);
	put_i32(msg, 40, r->test_length);
	put_u32(msg, 44, r->so_rcvavoid);
	put_u32(msg, 48, r->so_sndavoid);
	put_u32(msg, 52, r->data_port);
	put_u32(msg, 56, r->interval_burst);
	put_u32(msg, 60, r->interval_usecs);
	put_u32(msg, 64, r->cpu_frequency);
	put_u32(msg, 68, r->security_info);
	put_i32(msg, 72, r->socket_prio);
	put_i32(msg, 76, r->socket_tos);
	put_str(msg, 80, sizeof(r->system_model), r->system_model);
	put_str(msg, 113, sizeof(r->cpu_model), r->cpu_model);
	put_str(msg, 193, sizeof(r->security_string), r->security_string);
}

int ws_np_decode_omni_rsp(const uint8_t *msg, ws_np_omni_rsp *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	/* netperf checks serv_errno only; a reply of another type is an error reply. */
	r->serv_errno = ws_np_word1(msg);
	if (r->serv_errno != 0)
		return 0;
	int rc = check_type(msg, WS_NP_OMNI_RESPONSE, err);
	if (rc < 0)
		return rc;
	r->recv_buf_size = get_i32(msg, 8);
	r->receive_size = get_i32(msg, 12);
	r->recv_width = get_i32(msg, 16);
	r->send_buf_size = get_i32(msg, 20);
	r->send_size = get_i32(msg, 24);
	r->send_width = get_i32(msg, 28);
	r->flags = get_u32(msg, 32);
	r->cpu_rate = get_f32(msg, 36);
	r->test_length = get_i32(msg, 40);
	r->so_rcvavoid = get_u32(msg, 44);
	r->so_sndavoid = get_u32(msg, 48);
	r->data_port = get_u32(msg, 52);
	r->interval_burst = get_u32(msg, 56);
	r->interval_usecs = get_u32(msg, 60);
	r->cpu_frequency = get_u32(msg, 64);
	r->security_info = get_u32(msg, 68);
	r->socket_prio = get_i32(msg, 72);
	r->socket_tos = get_i32(msg, 76);
	get_str(msg, 80, sizeof(r->system_model), r->system_model);
	get_str(msg, 113, sizeof(r->cpu_model), r->cpu_model);
	get_str(msg, 193, sizeof(r->security_string), r->security_string);
	if ((rc = check_port(r->data_port, "data port", err)) < 0)
		return rc;
	if ((r->flags & WS_NP_F_MEASURE_CPU) && (!isfinite(r->cpu_rate) || r->cpu_rate < 0.0f))
		return ws_err_set(err, WS_E_PROTO,
				  "netserver CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r->cpu_rate);
	return 0;
}

/* Omni results: 2 + 27 words converted (bytes 0..115), strings raw from 116. */
void ws_np_encode_omni_results(const ws_np_omni_results *r, uint8_t *msg)
{
	header(msg, WS_NP_OMNI_RESPONSE, r->serv_errno);
	put_u64(msg, 8, r->bytes_received);
	put_u32(msg, 16, r->recv_calls);
	put_i32(msg, 20, r->recv_buf_size);
	put_u64(msg, 24, r->bytes_sent);
	put_u32(msg, 32, r->send_calls);
	put_i32(msg, 36, r->send_buf_size);
	put_u32(msg, 40, r->failed_sends);
	put_u32(msg, 44, r->trans_received);
	put_f32(msg, 48, r->elapsed_time);
	put_f32(msg, 52, r->cpu_util);
	put_f32(msg, 56, r->cpu_user);
	put_f32(msg, 60, r->cpu_system);
	put_f32(msg, 64, r->cpu_iowait);
	put_f32(msg, 68, r->cpu_irq);
	put_f32(msg, 72, r->cpu_softirq);
	put_f32(msg, 76, r->serv_dem);
	put_u32(msg, 80, r->cpu_method);
	put_u32(msg, 84, r->num_cpus);
	put_i32(msg, 88, r->peak_cpu_id);
	put_f32(msg, 92, r->peak_cpu_util);
	put_i32(msg, 96, r->pci_vendor);
	put_i32(msg, 100, r->pci_device);
	put_i32(msg, 104, r->pci_subvendor);
	put_i32(msg, 108, r->pci_subdevice);
	put_i32(msg, 112, r->transport_retrans);
	put_str(msg, 116, sizeof(r->ifname), r->ifname);
	put_str(msg, 132, sizeof(r->driver), r->driver);
	put_str(msg, 164, sizeof(r->version), r->version);
	put_str(msg, 196, sizeof(r->firmware), r->firmware);
	put_str(msg, 228, sizeof(r->bus), r->bus);
	put_str(msg, 260, sizeof(r->ifslot), r->ifslot);
	put_str(msg, 276, sizeof(r->cong_control), r->cong_control);
}

int ws_np_decode_omni_results(const uint8_t *msg, ws_np_omni_results *r, ws_err *err)
{
	(void)err; /* every bit pattern decodes; see ws_np_results_check_cpu */
	memset(r, 0, sizeof(*r));
	r->serv_errno = ws_np_word1(msg);
	r->bytes_received = get_u64(msg, 8);
	r->recv_calls = get_u32(msg, 16);
	r->recv_buf_size = get_i32(msg, 20);
	r->bytes_sent = get_u64(msg, 24);
	r->send_calls = get_u32(msg, 32);
	r->send_buf_size = get_i32(msg, 36);
	r->failed_sends = get_u32(msg, 40);
	r->trans_received = get_u32(msg, 44);
	r->elapsed_time = get_f32(msg, 48);
	r->cpu_util = get_f32(msg, 52);
	r->cpu_user = get_f32(msg, 56);
	r->cpu_system = get_f32(msg, 60);
	r->cpu_iowait = get_f32(msg, 64);
	r->cpu_irq = get_f32(msg, 68);
	r->cpu_softirq = get_f32(msg, 72);
	r->serv_dem = get_f32(msg, 76);
	r->cpu_method = get_u32(msg, 80);
	r->num_cpus = get_u32(msg, 84);
	r->peak_cpu_id = get_i32(msg, 88);
	r->peak_cpu_util = get_f32(msg, 92);
	r->pci_vendor = get_i32(msg, 96);
	r->pci_device = get_i32(msg, 100);
	r->pci_subvendor = get_i32(msg, 104);
	r->pci_subdevice = get_i32(msg, 108);
	r->transport_retrans = get_i32(msg, 112);
	get_str(msg, 116, sizeof(r->ifname), r->ifname);
	get_str(msg, 132, sizeof(r->driver), r->driver);
	get_str(msg, 164, sizeof(r->version), r->version);
	get_str(msg, 196, sizeof(r->firmware), r->firmware);
	get_str(msg, 228, sizeof(r->bus), r->bus);
	get_str(msg, 260, sizeof(r->ifslot), r->ifslot);
	get_str(msg, 276, sizeof(r->cong_control), r->cong_control);
	return 0;
}

static int check_pct(float v, const char *what, ws_err *err)
{
	if (isfinite(v) && v >= 0.0f && v <= 100.5f)
		return 0;
	return ws_err_set(err, WS_E_PROTO, "netserver %s %g%%; 0..100%% is accepted", what,
			  (double)v);
}

int ws_np_results_check_cpu(const ws_np_omni_results *r, ws_err *err)
{
	int rc;
	if ((rc = check_pct(r->cpu_util, "CPU utilisation", err)) < 0 ||
	    (rc = check_pct(r->cpu_user, "user CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_system, "system CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_iowait, "iowait CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_irq, "irq CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_softirq, "softirq CPU", err)) < 0)
		return rc;
	if (r->num_cpus < 1 || r->num_cpus > 65536)
		return ws_err_set(err, WS_E_PROTO, "netserver CPU count %u; 1..65536 is accepted",
				  (unsigned)r->num_cpus);
	return 0;
}

void ws_np_encode_stream_req(const ws_np_stream_req *r, uint8_t *msg)
{
	header(msg, WS_NP_DO_TCP_STREAM, r->cpu);
	put_i32(msg, 8, r->send_buf_size);
	put_i32(msg, 12, r->recv_buf_size);
	put_i32(msg, 16, r->receive_size);
	put_i32(msg, 20, r->recv_alignment);
	put_i32(msg, 24, r->recv_offset);
	put_i32(msg, 28, r->no_delay);
	put_i32(msg, 32, r->measure_cpu);
	put_f32(msg, 36, r->cpu_rate);
	put_i32(msg, 40, r->test_length);
	put_i32(msg, 44, r->so_rcvavoid);
	put_i32(msg, 48, r->so_sndavoid);
	put_i32(msg, 52, r->dirty_count);
	put_i32(msg, 56, r->clean_count);
	put_u32(msg, 60, r->data_port);
	put_u32(msg, 64, r->ipfamily);
}

int ws_np_decode_stream_req(const uint8_t *msg, ws_np_stream_req *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = check_type(msg, WS_NP_DO_TCP_STREAM, err);
	if (rc < 0)
		return rc;
	r->cpu = ws_np_word1(msg);
	r->send_buf_size = get_i32(msg, 8);
	r->recv_buf_size = get_i32(msg, 12);
	r->receive_size = get_i32(msg, 16);
	r->recv_alignment = get_i32(msg, 20);
	r->recv_offset = get_i32(msg, 24);
	r->no_delay = get_i32(msg, 28);
	r->measure_cpu = get_i32(msg, 32);
	r->cpu_rate = get_f32(msg, 36);
	r->test_length = get_i32(msg, 40);
	r->so_rcvavoid = get_i32(msg, 44);
	r->so_sndavoid = get_i32(msg, 48);
	r->dirty_count = get_i32(msg, 52);
	r->clean_count = get_i32(msg, 56);
	r->data_port = get_u32(msg, 60);
	r->ipfamily = get_u32(msg, 64);
	if ((rc = check_port(r->data_port, "data port", err)) < 0)
		return rc;
	if (!isfinite(r->cpu_rate) || r->cpu_rate < 0.0f)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r->cpu_rate);
	if (r->test_length == INT32_MIN)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf test length %ld; -2147483647..2147483647 is accepted",
				  (long)r->test_length);
	if (r->ipfamily != 0 && r->ipfamily != 4 && r->ipfamily != 6)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf address family %u; 0 (any), 4 or 6 is accepted",
				  (unsigned)r->ipfamily);
	return 0;
}

void ws_np_encode_stream_rsp(const ws_np_stream_rsp *r, uint8_t *msg)
{
	header(msg, WS_NP_TCP_STREAM_RESPONSE, r->serv_errno);
	put_i32(msg, 8, r->recv_buf_size);
	put_i32(msg, 12, r->receive_size);
	put_i32(msg, 16, r->no_delay);
	put_i32(msg, 20, r->measure_cpu);
	put_i32(msg, 24, r->test_length);
	put_i32(msg, 28, r->send_buf_size);
	put_u32(msg, 32, r->data_port);
	put_f32(msg, 36, r->cpu_rate);
	put_i32(msg, 40, r->so_rcvavoid);
	put_i32(msg, 44, r->so_sndavoid);
}

int ws_np_decode_stream_rsp(const uint8_t *msg, ws_np_stream_rsp *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	r->serv_errno = ws_np_word1(msg);
	if (r->serv_errno != 0)
		return 0;
	int rc = check_type(msg, WS_NP_TCP_STREAM_RESPONSE, err);
	if (rc < 0)
		return rc;
	r->recv_buf_size = get_i32(msg, 8);
	r->receive_size = get_i32(msg, 12);
	r->no_delay = get_i32(msg, 16);
	r->measure_cpu = get_i32(msg, 20);
	r->test_length = get_i32(msg, 24);
	r->send_buf_size = get_i32(msg, 28);
	r->data_port = get_u32(msg, 32);
	r->cpu_rate = get_f32(msg, 36);
	r->so_rcvavoid = get_i32(msg, 40);
	r->so_sndavoid = get_i32(msg, 44);
	return check_port(r->data_port, "data port", err);
}

void ws_np_encode_stream_results(const ws_np_stream_results *r, uint8_t *msg)
{
	uint64_t bits;
	memcpy(&bits, &r->bytes_received, sizeof(bits));
	header(msg, WS_NP_TCP_STREAM_RESPONSE, r->serv_errno);
	put_u64(msg, 8, bits);
	put_u32(msg, 16, r->recv_calls);
	put_f32(msg, 20, r->elapsed_time);
	put_f32(msg, 24, r->cpu_util);
	put_f32(msg, 28, r->serv_dem);
	put_u32(msg, 32, r->cpu_method);
	put_u32(msg, 36, r->num_cpus);
	put_i32(msg, 40, r->recv_buf_size);
	put_i32(msg, 44, r->send_buf_size);
}

int ws_np_decode_stream_results(const uint8_t *msg, ws_np_stream_results *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	uint64_t bits = get_u64(msg, 8);
	r->serv_errno = ws_np_word1(msg);
	memcpy(&r->bytes_received, &bits, sizeof(bits));
	r->recv_calls = get_u32(msg, 16);
	r->elapsed_time = get_f32(msg, 20);
	r->cpu_util = get_f32(msg, 24);
	r->serv_dem = get_f32(msg, 28);
	r->cpu_method = get_u32(msg, 32);
	r->num_cpus = get_u32(msg, 36);
	r->recv_buf_size = get_i32(msg, 40);
	r->send_buf_size = get_i32(msg, 44);
	if (!isfinite(r->bytes_received) || r->bytes_received < 0)
		return ws_err_set(err, WS_E_PROTO,
				  "netserver byte count %g; a finite count of 0 or more is accepted",
				  r->bytes_received);
	return 0;
}

int ws_np_encode_passphrase(const char *text, uint8_t *msg, ws_err *err)
{
	size_t n = strlen(text);
	if (n > WS_NP_PASSPHRASE_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "passphrase of %zu characters; at most %d are accepted", n,
				  WS_NP_PASSPHRASE_MAX);
	header(msg, WS_NP_PASSPHRASE, -1); /* netperf sends word 1 as -1 */
	memcpy(msg + 8, text, n);
	return 0;
}

/* Text from byte 8 into out[outsz]: -WS_E_PROTO when the 648 bytes hold no NUL or the
 * text does not fit out. */
static int get_text(const uint8_t *msg, char *out, size_t outsz, const char *what, ws_err *err)
{
	size_t n = strnlen((const char *)msg + 8, WS_NP_MSG_LEN - 8);
	if (outsz)
		out[0] = '\0';
	if (n == WS_NP_MSG_LEN - 8)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf %s text is not terminated; at most %d characters and a NUL are accepted",
				  what, WS_NP_MSG_LEN - 9);
	if (n >= outsz)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf %s text of %zu characters; at most %zu are accepted", what, n,
				  outsz ? outsz - 1 : 0);
	memcpy(out, msg + 8, n);
	out[n] = '\0';
	return 0;
}

int ws_np_decode_passphrase(const uint8_t *msg, char *out, size_t outsz, ws_err *err)
{
	int rc = check_type(msg, WS_NP_PASSPHRASE, err);
	if (rc < 0) {
		if (outsz)
			out[0] = '\0';
		return rc;
	}
	return get_text(msg, out, outsz, "passphrase", err);
}

void ws_np_encode_calibrate_reply(float rate, int32_t ncpus, uint8_t *msg)
{
	header(msg, WS_NP_CPU_CALIBRATE, 0);
	put_f32(msg, 8, rate);
	put_i32(msg, 12, ncpus);
}

int ws_np_decode_calibrate_reply(const uint8_t *msg, float *rate, int32_t *ncpus, ws_err *err)
{
	*rate = 0.0f;
	*ncpus = 0;
	int32_t e = ws_np_word1(msg);
	if (e != 0)
		return ws_err_set(err, WS_E_REMOTE, "netserver refused CPU_CALIBRATE: remote error %ld",
				  (long)e);
	int rc = check_type(msg, WS_NP_CPU_CALIBRATE, err);
	if (rc < 0)
		return rc;
	float r = get_f32(msg, 8);
	int32_t n = get_i32(msg, 12);
	if (!isfinite(r) || r < 0.0f)
		return ws_err_set(err, WS_E_PROTO,
				  "netserver CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r);
	if (n < 1 || n > 65536)
		return ws_err_set(err, WS_E_PROTO, "netserver CPU count %ld; 1..65536 is accepted",
				  (long)n);
	*rate = r;
	*ncpus = n;
	return 0;
}

void ws_np_encode_sysinfo_reply(int32_t serv_errno, const char *text, uint8_t *msg)
{
	header(msg, WS_NP_SYSINFO_RESPONSE, serv_errno);
	put_str(msg, 8, WS_NP_MSG_LEN - 8, text);
}

int ws_np_decode_sysinfo_reply(const uint8_t *msg, char *out, size_t outsz, ws_err *err)
{
	int rc = check_type(msg, WS_NP_SYSINFO_RESPONSE, err);
	if (rc < 0) {
		if (outsz)
			out[0] = '\0';
		return rc;
	}
	return get_text(msg, out, outsz, "SYSINFO", err);
}

void ws_np_encode_error(int32_t type, int32_t serv_errno, uint8_t *msg)
{
	header(msg, type, serv_errno);
}

/* The in4 word is the address as a host integer: its bytes in network order. */
void ws_np_addr_from_in4(const uint8_t a[4], uint32_t w[4])
{
	w[0] = ws_get_be32(a);
	w[1] = w[2] = w[3] = 0;
}

void ws_np_addr_to_in4(const uint32_t w[4], uint8_t a[4])
{
	ws_put_be32(a, w[0]);
}

/* The in6 words are the address bytes read as native words (memcpy, not shifts). */
void ws_np_addr_from_in6(const uint8_t a[16], uint32_t w[4])
{
	memcpy(w, a, 16);
}

void ws_np_addr_to_in6(const uint32_t w[4], uint8_t a[16])
{
	memcpy(a, w, 16);
}

void ws_np_reader_init(ws_np_reader *rd)
{
	rd->got = 0;
	rd->full = 0;
}

void ws_np_reader_prime(ws_np_reader *rd, const uint8_t *p, size_t n)
{
	if (n > WS_NP_MSG_LEN)
		n = WS_NP_MSG_LEN;
	memcpy(rd->buf, p, n);
	rd->got = n;
	rd->full = n == WS_NP_MSG_LEN; /* a whole message: the next read starts another */
}

int ws_np_reader_read(ws_np_reader *rd, int fd, ws_err *err)
{
	if (rd->full) {
		rd->got = 0; /* the previous call returned a whole message */
		rd->full = 0;
	}
	while (rd->got < WS_NP_MSG_LEN) {
		ssize_t r = recv(fd, rd->buf + rd->got, WS_NP_MSG_LEN - rd->got, MSG_DONTWAIT);
		if (r > 0) {
			rd->got += (size_t)r;
			continue;
		}
		if (r == 0) {
			if (rd->got == 0)
				return ws_err_set(err, ECONNRESET, "the netperf peer closed the connection");
			return ws_err_set(err, ECONNRESET,
					  "the netperf peer closed the connection after %zu bytes of a %d-byte message",
					  rd->got, WS_NP_MSG_LEN);
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		return ws_err_errno(err, "receive a netperf message");
	}
	rd->full = 1;
	return 1;
}
