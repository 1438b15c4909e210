#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# mesh: `mpirun -np 4 warpspeed mesh` on one machine, each rank on its own loopback address
# (--bind-addr 127.0.0.%r; the ring on ::1 over IPv6). Every schedule gives its complete matrix (table and JSON, the
# JSON valid against docs/schema/mesh.schema.json); a rank whose daemon refuses (its own
# --max-memory, through mpirun's A : B form) fails exactly the cells into it, with the
# daemon's reason, and the mesh completes; a rank that cannot start ends the job through
# MPI_Abort naming its rank and host; a rank killed mid-test ends the job; and no rank
# process outlives its mpirun (checked by PID). The default binary, which has no MPI, says
# so. Needs the MPI build (make MPI=1; make MPI=1 test passes it as WS_MPI_BIN) and mpirun.
source "$(dirname "$0")/../lib.sh"

out=$("$WS_BIN" mesh --pairs ring 2>&1)
rc=$?
if [ $rc = 2 ] && [[ $out == *"built without MPI support; rebuild with make MPI=1"* ]]; then
	pass mesh_without_mpi
else
	fail mesh_without_mpi "status $rc: $out"
fi

MPI_BIN=${WS_MPI_BIN-${WS_BUILD:-}/mpi/warpspeed}
NAMES="mesh_man_covers_help mesh_all mesh_ring mesh_matching_refusal mesh_all_to_all mesh_json_schema mesh_rank_abort mesh_rank_killed mesh_no_leftovers"
skip_all() {
	local t
	for t in $NAMES; do skip "$t" "$1"; done
	finish
}
[ -n "$MPI_BIN" ] || skip_all "this build has no MPI (make MPI=1 test runs it against build/mpi/warpspeed)"
[ -x "$MPI_BIN" ] || skip_all "no MPI build at $MPI_BIN (make MPI=1)"
command -v mpirun >/dev/null || skip_all "mpirun is not installed (Debian: openmpi-bin)"
CHECK="python3 $WS_ROOT/tests/integration/mesh_check.py"
SCHEMA=$WS_ROOT/docs/schema/mesh.schema.json
HAVE_SCHEMA=1
python3 "$WS_ROOT/tests/integration/json_check.py" have-jsonschema 2>/dev/null || HAVE_SCHEMA=0

# `warpspeed mesh --help` needs no MPI: every option it names must be in warpspeed(1).
if ! command -v man >/dev/null; then
	skip mesh_man_covers_help "man is not installed"
else
	opts() { grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z0-9][A-Za-z0-9_-]*' | sed 's/^[^-]*//' | sort -u; }
	MANWIDTH=1000 man -E ascii -l "$WS_ROOT/docs/warpspeed.1" 2>/dev/null | col -b | opts >"$WS_TMP/man.opts"
	"$MPI_BIN" mesh --help >"$WS_TMP/help.txt" 2>&1
	missing=$(opts <"$WS_TMP/help.txt" | comm -23 - "$WS_TMP/man.opts" | tr '\n' ' ')
	if [ -s "$WS_TMP/help.txt" ] && [ -z "$missing" ]; then
		pass mesh_man_covers_help
	else
		fail mesh_man_covers_help "options in mesh --help but not in warpspeed(1): [$missing] $(head -c 300 "$WS_TMP/help.txt")"
	fi
fi

# MPI over loopback TCP only: no shared-memory transport (containers), no other network.
MPIRUN=(mpirun --allow-run-as-root --oversubscribe --mca btl self,tcp --mca btl_tcp_if_include lo
	--mca oob_tcp_if_include lo)
MESH=("$MPI_BIN" mesh --bind-addr '127.0.0.%r')
# Under SANITIZE=1, OpenMPI's own leaks are not ours (see mesh.lsan.supp): full stacks
# (OpenMPI has no frame pointers) reach an OpenMPI frame that the suppressions name. Full
# stacks make OpenMPI's start-up slow under ASan (25 s instead of 3 on two busy cores), so
# leaks are looked for in one run, all-to-all (the most threads), with LEAKS_ASAN.
export OMPI_MCA_mca_base_component_disable_dlclose=1
LEAKS_ASAN="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:fast_unwind_on_malloc=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export LSAN_OPTIONS="suppressions=$WS_ROOT/tests/integration/mesh.lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
SHORT=(-l -2000000) # 2 MB per test: milliseconds on loopback
RANK_PIDS=()
SEEN=0 # ranks seen by the last run_mesh

# run_mesh NAME [KILL_AFTER_SECONDS] -- MPIRUN-APP-ARGS...: mpirun in the background, its
# children (the ranks) recorded by PID while it runs; with KILL_AFTER, one rank is killed
# (SIGKILL) that long after all four are up. Sets RC; output in $WS_TMP/NAME.out/.err.
run_mesh() {
	local name=$1 kill_after=$2 polls=0 up=0 p t0=$SECONDS
	shift 3
	SEEN=0
	"${MPIRUN[@]}" "$@" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err" &
	local mp=$!
	WS_PIDS+=("$mp")
	while kill -0 "$mp" 2>/dev/null; do
		for p in $(pgrep -P "$mp"); do
			if [[ " ${RANK_PIDS[*]} " != *" $p "* ]]; then
				RANK_PIDS+=("$p")
				WS_PIDS+=("$p")
				SEEN=$((SEEN + 1))
			fi
		done
		[ "$SEEN" -ge 4 ] && [ "$up" = 0 ] && up=$polls
		if [ -n "$kill_after" ] && [ "$up" != 0 ] && [ $((polls - up)) -ge $((kill_after * 20)) ]; then
			kill -9 "${RANK_PIDS[-1]}" 2>/dev/null
			kill_after=
		fi
		polls=$((polls + 1))
		if [ $polls -gt 1200 ]; then # 60 s
			kill "$mp"
			break
		fi
		sleep 0.05
	done
	wait "$mp"
	RC=$?
	[ -n "${MESH_TIMES:-}" ] && echo "run_mesh $name: $((SECONDS - t0)) s" >&2
}

# Cells of the table printed as a throughput.
measured() { awk '/^from\\to/ { on = 1; next } on && NF == 5 { for (i = 2; i <= 5; i++) if ($i ~ /^[0-9]+\.[0-9][0-9]$/) n++ } END { print n + 0 }' "$1"; }

# The ring runs over IPv6 where loopback has ::1: every rank on ::1, each daemon on its own
# port, and each client bound to ::1 (-6 with a local address).
V6=0
python3 -c 'import socket; socket.socket(socket.AF_INET6).bind(("::1", 0))' 2>/dev/null && V6=1
for sched in all ring all-to-all; do
	t=mesh_${sched//-/_}
	mesh=("${MESH[@]}")
	[ "$sched" = ring ] && [ $V6 = 1 ] && mesh=("$MPI_BIN" mesh -6 --bind-addr ::1)
	asan=$ASAN_OPTIONS
	[ "$sched" = all-to-all ] && asan=$LEAKS_ASAN
	ASAN_OPTIONS=$asan run_mesh "$sched" "" -- -np 4 "${mesh[@]}" --pairs "$sched" --json "$WS_TMP/$sched.json" "${SHORT[@]}"
	want=12
	[ "$sched" = ring ] && want=4
	got=$(measured "$WS_TMP/$sched.out")
	if [ $RC = 0 ] && [ "$got" = $want ] && [ "$SEEN" = 4 ] &&
		grep -q "^MESH TCP_STREAM TEST: 4 ranks, schedule $sched " "$WS_TMP/$sched.out" &&
		{ [ "$sched" != ring ] || [ $V6 = 0 ] || [ "$(grep -c '^[0-3]  .*  ::1$' "$WS_TMP/$sched.out")" = 4 ]; } &&
		{ [ $HAVE_SCHEMA = 0 ] || $CHECK doc "$SCHEMA" "$WS_TMP/$sched.json" "$sched" 4 >"$WS_TMP/check" 2>&1; }; then
		pass "$t"
	else
		fail "$t" "status $RC, $got of $want cells measured, $SEEN ranks seen: $(cat "$WS_TMP/$sched.out" "$WS_TMP/$sched.err" "$WS_TMP/check" 2>/dev/null | head -c 1500)"
	fi
done

# Rank 3's daemon takes 1 KiB of buffers: every test into it is refused, the rest measured.
run_mesh matching "" -- -np 3 "${MESH[@]}" --pairs matching --json "$WS_TMP/matching.json" \
	--svg "$WS_TMP/matching.svg" "${SHORT[@]}" \
	: -np 1 "${MESH[@]}" --pairs matching --max-memory 1K "${SHORT[@]}"
col3=$(awk '/^from\\to/ { on = 1; next } on && NF == 5 { printf "%s ", $5 }' "$WS_TMP/matching.out")
if [ $RC = 1 ] && [ "$(measured "$WS_TMP/matching.out")" = 9 ] && [ "$col3" = "failed[1] failed[2] failed[3] - " ] &&
	[ "$(grep -c "^\[[123]\] [012] -> 3 (.*127.0.0.4), round [0-5]: the daemon reported: .*over this daemon's memory budget of 1 KiB" "$WS_TMP/matching.out")" = 3 ] &&
	grep -q "^warpspeed mesh: 3 of 12 tests failed; their cells say why" "$WS_TMP/matching.err" &&
	{ [ $HAVE_SCHEMA = 0 ] || $CHECK doc "$SCHEMA" "$WS_TMP/matching.json" matching 4 3 >"$WS_TMP/check" 2>&1; } &&
	python3 -c '
import sys, xml.etree.ElementTree as E
d = E.parse(sys.argv[1]).getroot().find("{http://www.w3.org/2000/svg}desc").text
sys.exit(0 if d.startswith("Heatmap:") and "4 x 4; 9 cells measured, 3 failed" in d else 1)' "$WS_TMP/matching.svg" 2>"$WS_TMP/check"; then
	pass mesh_matching_refusal
else
	fail mesh_matching_refusal "status $RC, column 3 [$col3]: $(cat "$WS_TMP/matching.out" "$WS_TMP/matching.err" "$WS_TMP/check" 2>/dev/null | head -c 1500)"
fi

if [ $HAVE_SCHEMA = 0 ]; then
	skip mesh_json_schema "python3 with the jsonschema module (Debian python3-jsonschema) is not installed"
elif $CHECK negative "$SCHEMA" "$WS_TMP/matching.json" >"$WS_TMP/check" 2>&1; then
	pass mesh_json_schema
else
	fail mesh_json_schema "$(cat "$WS_TMP/check")"
fi

# 192.0.2.1 (TEST-NET-1) is nobody's address here: rank 3 cannot listen and ends the job.
# (OpenMPI's own MPI_ABORT notice is not checked: its mpirun sometimes fails to print it.)
run_mesh abort "" -- -np 3 "${MESH[@]}" "${SHORT[@]}" : -np 1 "$MPI_BIN" mesh --bind-addr 192.0.2.1 "${SHORT[@]}"
host=$(hostname)
if [ $RC != 0 ] && grep -q "^warpspeed mesh: rank 3 on ${host:0:63}: .*192.0.2.1.*; ending the mesh$" "$WS_TMP/abort.err" &&
	! grep -q "^MESH" "$WS_TMP/abort.out"; then
	pass mesh_rank_abort
else
	fail mesh_rank_abort "status $RC: $(head -c 1500 "$WS_TMP/abort.err")"
fi

# A 20 s test per pair; one rank killed a second in must end the whole job at once.
start=$SECONDS
run_mesh killed 1 -- -np 4 "${MESH[@]}" -l 20
took=$((SECONDS - start))
if [ $RC != 0 ] && [ $took -lt 15 ] && grep -q "exited on signal 9" "$WS_TMP/killed.err"; then
	pass mesh_rank_killed
else
	fail mesh_rank_killed "status $RC after $took s: $(head -c 1500 "$WS_TMP/killed.err")"
fi

# A PID is left over while it is still a rank of ours (PIDs are reused on a busy machine);
# ranks that mpirun has just signalled get two seconds to go.
ours() { { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null | grep -q "^$MPI_BIN mesh "; }
for _ in $(seq 1 40); do
	left=()
	for p in "${RANK_PIDS[@]}"; do ours "$p" && left+=("$p"); done
	[ ${#left[@]} = 0 ] && break
	sleep 0.05
done
if [ ${#RANK_PIDS[@]} -ge 24 ] && [ ${#left[@]} = 0 ]; then
	pass mesh_no_leftovers
else
	fail mesh_no_leftovers "${#RANK_PIDS[@]} rank processes seen, still running: ${left[*]:-none}"
fi
finish
