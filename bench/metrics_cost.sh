#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# What serve --metrics costs a test, on loopback, not run in CI (issue 31's goal: a scrape
# every 100 ms changes TCP_STREAM throughput by under 1%). Three arms, alternated within
# each round so that drift in the machine's load lands on all of them alike:
#   plain    a daemon without --metrics
#   idle     a daemon with --metrics that nobody scrapes
#   scraped  the same daemon while a scraper GETs /metrics every 100 ms
# Each arm's median throughput over the rounds, the change of idle and scraped against
# plain, and the noise: the spread (max - min) of plain's runs against its median, which a
# change must exceed before it means anything.
#
#   bench/metrics_cost.sh [--rounds R] [--seconds S]    defaults: 7 rounds of 3 s (~70 s)
# Env: WS_BIN (default build/warpspeed). Needs python3 (the scraper). Exit 0 unless a daemon cannot start.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ws_bin=${WS_BIN:-$here/../build/warpspeed}
source "$here/lib.sh"
rounds=7 secs=3
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --seconds)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		case $1 in --rounds) rounds=$2 ;; --seconds) secs=$2 ;; esac
		shift 2 ;;
	*) ws_usage_die "unknown argument '$1'; expected --rounds or --seconds" ;;
	esac
done
[ -x "$ws_bin" ] || ws_die "$ws_bin not built (make)"
command -v python3 >/dev/null || ws_die "python3 is needed for the scraper"
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"' EXIT

# start NAME ARGS...: a daemon on a free port; sets port_NAME (and mport_NAME with --metrics).
start() {
	local name=$1 log=$tmp/$1.log p m
	shift
	"$ws_bin" serve -p 0 -L 127.0.0.1 "$@" 2>"$log" &
	pids+=($!)
	for _ in $(seq 1 100); do
		p=$(sed -n 's/.*listening on .* port \([0-9]*\) .*/\1/p' "$log")
		m=$(sed -n 's|.*metrics on http://127.0.0.1:\([0-9]*\)/metrics|\1|p' "$log")
		[ -n "$p" ] && { [ $# -eq 0 ] || [ -n "$m" ]; } && break
		sleep 0.05
	done
	[ -n "$p" ] || ws_die "daemon $name did not start: $(cat "$log")"
	printf -v "port_$name" '%s' "$p"
	printf -v "mport_$name" '%s' "$m"
}
start plain
start metrics --metrics 127.0.0.1:0

run() { # PORT: one TCP_STREAM's throughput in 10^6 bits/s
	"$ws_bin" -H 127.0.0.1 -p "$1" -t TCP_STREAM -l "$secs" -P 0 -- -o THROUGHPUT 2>/dev/null | tail -n 1
}
scraper() { # a GET every 100 ms on a fixed schedule until killed; counts the scrapes
	exec python3 - "$mport_metrics" "$tmp/scrapes" <<'EOF'
import sys, time, urllib.request
url, out, n = "http://127.0.0.1:%s/metrics" % sys.argv[1], sys.argv[2], 0
t = time.monotonic()
while True:
    try:
        urllib.request.urlopen(url, timeout=1).read()
        n += 1
    except OSError:
        pass
    open(out, "w").write("%d\n" % n)
    t += 0.1
    time.sleep(max(0.0, t - time.monotonic()))
EOF
}

for r in $(seq 1 "$rounds"); do
	run "$port_plain" >>"$tmp/plain"
	run "$port_metrics" >>"$tmp/idle"
	rm -f "$tmp/scrapes"
	scraper &
	sp=$!
	pids+=("$sp")
	for _ in $(seq 1 100); do [ -s "$tmp/scrapes" ] && break; sleep 0.05; done # scraping
	n0=$(cat "$tmp/scrapes" 2>/dev/null || echo 0)
	run "$port_metrics" >>"$tmp/scraped"
	n1=$(cat "$tmp/scrapes" 2>/dev/null || echo 0)
	kill "$sp"
	wait "$sp" 2>/dev/null
	echo "round $r/$rounds: plain $(tail -n 1 "$tmp/plain"), idle $(tail -n 1 "$tmp/idle"), scraped $(tail -n 1 "$tmp/scraped") 10^6bits/s ($((n1 - n0)) scrapes during the run)"
done

# The endpoint's own CPU, free of the loopback's noise: the daemon's CPU time (utime +
# stime from /proc, 10 ms ticks) over 2000 back-to-back scrapes.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
mpid=${pids[1]}
t0=$(cpu_ticks "$mpid")
python3 - "$mport_metrics" <<'EOF'
import sys, urllib.request
for _ in range(2000):
    urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=2).read()
EOF
t1=$(cpu_ticks "$mpid")
hz=$(getconf CLK_TCK)

read -r pm pmin pmax pn < <(ws_stats <"$tmp/plain")
read -r im _ _ _ < <(ws_stats <"$tmp/idle")
read -r sm _ _ _ < <(ws_stats <"$tmp/scraped")
awk -v p="$pm" -v i="$im" -v s="$sm" -v lo="$pmin" -v hi="$pmax" -v n="$pn" -v secs="$secs" 'BEGIN {
	printf "TCP_STREAM on loopback, %d alternated rounds of %d s, medians in 10^6bits/s:\n", n, secs
	printf "  plain %.2f   idle (--metrics, no scrapes) %.2f (%+.2f%%)   scraped every 100 ms %.2f (%+.2f%%)\n", p, i, (i / p - 1) * 100, s, (s / p - 1) * 100
	printf "  noise: plain runs spread %.2f..%.2f, %.1f%% of their median\n", lo, hi, (hi - lo) / p * 100
}'
awk -v t="$((t1 - t0))" -v hz="$hz" 'BEGIN {
	us = t / hz / 2000 * 1e6
	printf "  the endpoint: %.0f us of daemon CPU per scrape (2000 scrapes, %d ticks of 1/%d s): %.3f%% of one CPU at 10 scrapes/s\n", us, t, hz, us * 10 / 1e6 * 100
}'
