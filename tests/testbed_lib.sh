# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# The common start of every tests/integration/testbed_* script, so that each one says only
# what its bed checks: where the tree, the binary and bench/testbed are (WS_ROOT, WS_BIN,
# or this tree's build/ when run by hand), result lines (tests/lib.sh's when it was sourced
# first), the skip of every check when this host cannot build beds (not root, no ip or tc)
# or the build is sanitized (WS_TESTBED_SAN=1 builds them there too), the bed's name with
# the script's prefix and its teardown at exit, even on failure or ^C, the bed brought up
# with its variables (WS_A, WS_B, ...) set, and the leftover check.
# Usage: . "$(dirname "$0")/../testbed_lib.sh"   (after tests/lib.sh, or alone)
set -u
root=${WS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ws_bin=${WS_BIN:-$root/build/warpspeed}
tb=$root/bench/testbed
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
if ! declare -F pass >/dev/null; then
	failed=0
	pass() { echo "PASS $1"; }
	fail() { echo "FAIL $1: $2"; failed=1; }
	skip() { echo "SKIP $1: $2"; }
fi

# The ws-* namespaces now, one a line, sorted.
ws_namespaces() { ip netns list 2>/dev/null | awk '$1 ~ /^ws-/ { print $1 }' | sort; }

# testbed_sanitized: under a sanitized build (make SANITIZE=1 test), print why the beds are
# not built there (status 1 when they are, or WS_TESTBED_SAN=1 asks for them). What a bed
# adds to the loopback scripts is the kernel's links, queues and MPTCP paths; the code it
# drives runs under ASan/UBSan in those scripts already, and the beds cost CI about 105 s.
testbed_sanitized() {
	[ "${WS_TESTBED_SAN:-0}" = 1 ] && return 1
	"$ws_bin" -V 2>/dev/null | grep -q ", ASan" || return 1
	echo "not under a sanitized build ($ws_bin): the beds test the kernel's links, queues and MPTCP paths with code the loopback scripts run under ASan/UBSan already; WS_TESTBED_SAN=1 runs them anyway"
}

# testbed_need CHECK...: when this host cannot build a bed, or the build is sanitized
# (testbed_sanitized), one SKIP line per CHECK with the reason, and the script ends with
# the status of its checks so far. Scripts call it before any bed is built, so no bed is
# taken down at that exit (no `ip netns` call at all).
testbed_need() {
	local why c
	why=$(testbed_sanitized) || why=$(ws_testbed_missing) || return 0
	for c in "$@"; do skip "$c" "$why"; done
	testbed_beds=()
	exit "${WS_FAILED:-${failed:-0}}"
}

# testbed_name PREFIX: name=ws-PREFIX<pid>, and at exit (or ^C, status 130) the processes
# in pids stopped, the script's own testbed_cleanup run when it has one, every bed in
# testbed_beds (name, to which a script adds the others it builds) taken down, and last
# tests/lib.sh's ws_cleanup.
pids=()
testbed_name() {
	name=ws-$1$$
	testbed_beds=("$name")
	trap testbed_exit EXIT
	trap 'exit 130' INT TERM
}
# shellcheck disable=SC2317 # called by the EXIT trap
testbed_exit() {
	local n p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	! declare -F testbed_cleanup >/dev/null || testbed_cleanup
	for n in "${testbed_beds[@]}"; do "$tb" down "$n" >/dev/null 2>&1; done
	! declare -F ws_cleanup >/dev/null || ws_cleanup
}

# testbed_up CHECK PROFILE [NAME]: `bench/testbed up PROFILE` as NAME (default $name), its
# lines in TB_ENV and its variables set (WS_TESTBED_NAME exported); on failure, CHECK fails
# with bench/testbed's output and the script ends (status 1).
testbed_up() {
	if ! TB_ENV=$("$tb" up "$2" --name "${3:-$name}" 2>&1); then
		fail "$1" "bench/testbed up $2 failed: $TB_ENV"
		exit 1
	fi
	eval "$TB_ENV"
	export WS_TESTBED_NAME
}

# testbed_no_leftovers CHECK [BEFORE]: passes when no namespace of this run's beds (named
# $name-...) is left or, given BEFORE (ws_namespaces' lines at the start), no ws-*
# namespace that was not there before.
testbed_no_leftovers() {
	local left
	if [ $# -ge 2 ]; then
		left=$(comm -13 <(echo "$2") <(ws_namespaces) | grep .)
	else
		left=$(ws_namespaces | grep "^$name-")
	fi
	if [ -z "$left" ]; then
		pass "$1"
	else
		fail "$1" "ws-* namespaces left: $(echo "$left" | tr "\n" " ")"
	fi
}
