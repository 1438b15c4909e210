# SPDX-License-Identifier: BSD-2-Clause
# soak_hostile: bench/soak.sh for two turns of its attackers (issue 27's hostile peers in
# rotation, one lane per target side by side, all at once with honest clients): honest
# netperf-style runs of all seven test types, keyed runs and `iq read`/`iq write` must all
# succeed while the attackers run, and afterwards the daemons' and node's descriptors and
# threads must be back within 2 of their start, RSS growth and log sizes under soak.sh's
# stated bounds. A daemon whose log limiter is gone (D2) writes megabytes a second under the
# flood rows and fails the log bound; one that leaks a descriptor per killed client (D7) or
# per squatter (D12) fails the fd bound. Every attack runs twice (--rounds 2): a leak of one
# descriptor per killed client (two a turn) is 2 more after one turn, which the +2 bound
# lets through, and 4 after two. About 35-50 s on a 2-vCPU host, under build/san too, with
# a lighter honest load there (soak.sh --ci: a pause after each honest run). The report is
# printed as # lines.
source "$(dirname "$0")/../lib.sh"
if ! command -v python3 >/dev/null; then
	skip soak_hostile "python3 is not installed"
	finish
fi
WS_BIN=$WS_BIN "$WS_ROOT/bench/soak.sh" --rounds 2 --ci --build "$WS_BUILD" >"$WS_TMP/soak.out" 2>&1
rc=$?
sed 's/^/# /' "$WS_TMP/soak.out"
runs=$(sed -n 's/^honest runs: \([0-9]*\).*/\1/p' "$WS_TMP/soak.out")
failures=$(sed -n 's/^honest failures: \([0-9]*\).*/\1/p' "$WS_TMP/soak.out")
if [ -n "$runs" ] && [ "$runs" -ge 20 ] && [ "$failures" = 0 ] &&
	! grep -q "^  no honest" "$WS_TMP/soak.out"; then
	pass "soak_hostile_honest_runs ($runs runs, 0 failed)"
else
	fail soak_hostile_honest_runs "$runs runs, $failures failed (exit $rc): $(grep -A1 -E "^  (FAILED|no honest)" "$WS_TMP/soak.out" | head -n 6)"
fi
if [ $rc -le 1 ] && ! grep -q "^  BOUND" "$WS_TMP/soak.out" && grep -q "^bounds:" "$WS_TMP/soak.out"; then
	pass soak_hostile_resources_bounded
else
	fail soak_hostile_resources_bounded "exit $rc: $(grep -E '^  BOUND|soak.sh:' "$WS_TMP/soak.out" | head -n 5)"
fi
# every row of the rotation ran at least twice: not a test of idle targets
missing=
for a in log_flood_np log_flood_ws hold killed guess squat fds_refused fds_held node_hogs node_sparse; do
	grep -qE "^soak: .*[ ,]$a x([2-9]|[1-9][0-9]+)(,|$)" "$WS_TMP/soak.out" || missing="$missing $a"
done
if [ -z "$missing" ]; then pass soak_hostile_every_attack_ran
else fail soak_hostile_every_attack_ran "not run twice:$missing ($(grep "^soak: " "$WS_TMP/soak.out"))"; fi
[ $rc -eq 0 ] || [ "$WS_FAILED" = 1 ] || fail soak_hostile "bench/soak.sh exited $rc"
finish
