#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_files: the files `warpspeed iq read` and `iq bench` write, by util/safefile.c's rule
# (issue 27, D1), against a real `warpspeed node`: a symbolic link given as -o is refused
# and its target left alone; a link planted at the old "T.partial" name is not followed;
# a 0600 file keeps its mode; a FIFO with a reader gets the samples in place, one without
# a reader is refused at once; a character device is written in place; -o - writes the raw samples to a pipe bit-exact; a
# directory is refused with a clear error; a directory that cannot be written, or a link
# as --json-file / --svg, is refused before any network work (the NODE given is a closed
# port, so network work would end in a different error); `iq write` of a FIFO (a SigMF
# recording's .sigmf-data, a raw .cf32) is refused at once, by name (D10); SigMF
# metadata cut in the middle of its object is refused as "not JSON ... at byte N".
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP

if ! start_node; then
	fail iq_files_node "no banner: $(head -c 300 "$T/node.err")"
	finish
fi
N=127.0.0.1:$NODE_PORT
rd() { "$WS_BIN" iq read "$N" --rf A --samples 4K "$@"; }

# Known samples in RF_A: written, triggered, read back once as the reference.
head -c 16384 /dev/urandom >"$T/x.ci16"
if ! { "$WS_BIN" iq write "$N" --rf A -i "$T/x.ci16" && "$WS_BIN" iq trigger "$N" &&
	rd -o "$T/ref.ci16" && cmp -s "$T/x.ci16" "$T/ref.ci16"; } >"$T/setup" 2>&1; then
	fail iq_files_setup "$(tail -c 300 "$T/setup")"
	finish
fi

echo secret >"$T/victim"
ln -s "$T/victim" "$T/lnk.ci16"
rd -o "$T/lnk.ci16" >"$T/l.out" 2>"$T/l.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$T/victim")" = secret ] && [ -L "$T/lnk.ci16" ] &&
	grep -q "'$T/lnk.ci16' is a symbolic link: warpspeed does not write through links" "$T/l.err"; then
	pass iq_files_symlink_refused
else
	fail iq_files_symlink_refused "status $rc: $(head -c 300 "$T/l.err")"
fi

ln -s "$T/victim" "$T/t.ci16.partial"
if rd -o "$T/t.ci16" >"$T/p.out" 2>&1 && [ "$(cat "$T/victim")" = secret ] &&
	[ -L "$T/t.ci16.partial" ] && cmp -s "$T/t.ci16" "$T/x.ci16"; then
	pass iq_files_planted_temp_name
else
	fail iq_files_planted_temp_name "victim now $(head -c 20 "$T/victim" | od -An -c | head -1): $(head -c 300 "$T/p.out")"
fi

echo old >"$T/priv.ci16"
chmod 600 "$T/priv.ci16"
if rd -o "$T/priv.ci16" >"$T/m.out" 2>&1 && [ "$(stat -c %a "$T/priv.ci16")" = 600 ] &&
	cmp -s "$T/priv.ci16" "$T/x.ci16"; then
	pass iq_files_mode_kept
else
	fail iq_files_mode_kept "mode $(stat -c %a "$T/priv.ci16"): $(head -c 300 "$T/m.out")"
fi

mkfifo "$T/ff"
s0=$(date +%s%N)
timeout 10 "$WS_BIN" iq read "$N" --rf A --samples 4K --format ci16 -o "$T/ff" >"$T/f.out" 2>"$T/f.err"
rc=$?
ms=$((($(date +%s%N) - s0) / 1000000))
if [ $rc -eq 2 ] && [ $ms -lt 2000 ] && [ -p "$T/ff" ] && grep -q "is a FIFO with no reader" "$T/f.err"; then
	pass iq_files_fifo_no_reader_refused
else
	fail iq_files_fifo_no_reader_refused "status $rc after $ms ms: $(head -c 300 "$T/f.err")"
fi
cat "$T/ff" >"$T/fifo.got" &
cat_pid=$!
WS_PIDS+=("$cat_pid")
sleep 0.1
timeout 10 "$WS_BIN" iq read "$N" --rf A --samples 4K --format ci16 -o "$T/ff" >"$T/f2.out" 2>&1
rc=$?
wait "$cat_pid"
if [ $rc -eq 0 ] && [ -p "$T/ff" ] && cmp -s "$T/fifo.got" "$T/x.ci16"; then
	pass iq_files_fifo_in_place
else
	fail iq_files_fifo_in_place "status $rc: $(head -c 300 "$T/f2.out")"
fi

rd -o - 2>"$T/d.err" | cat >"$T/dash.got"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 0 ] && cmp -s "$T/dash.got" "$T/x.ci16" &&
	grep -q 'into standard output' "$T/d.err"; then
	pass iq_files_dash_stdout_bitexact
else
	fail iq_files_dash_stdout_bitexact "status $rc, $(stat -c %s "$T/dash.got") bytes: $(head -c 300 "$T/d.err")"
fi

# A character device of our own (a /dev/null twin), so that a writer that replaces devices
# cannot harm the machine's /dev/null.
if mknod -m 666 "$T/null" c 1 3 2>/dev/null; then
	if rd --format ci16 -o "$T/null" >"$T/n.out" 2>&1 && [ -c "$T/null" ]; then
		pass iq_files_char_device_in_place
	else
		fail iq_files_char_device_in_place "$(head -c 300 "$T/n.out")"
	fi
else
	skip iq_files_char_device_in_place "mknod needs root"
fi

mkdir "$T/adir.ci16"
rd -o "$T/adir.ci16" >"$T/a.out" 2>"$T/a.err"
rc=$?
if [ $rc -eq 2 ] && [ -d "$T/adir.ci16" ] &&
	grep -q "'$T/adir.ci16' is a directory: give a file name" "$T/a.err"; then
	pass iq_files_directory_refused
else
	fail iq_files_directory_refused "status $rc: $(head -c 300 "$T/a.err")"
fi

# Before any network work: the NODE is a port nothing listens on.
closed=127.0.0.1:9
"$WS_BIN" iq read "$closed" --rf A --samples 4K -o "/nonexistent-$$/x.ci16" >"$T/c.out" 2>"$T/c.err"
rc=$?
if [ $rc -eq 2 ] && grep -q "cannot create a file in directory '/nonexistent-$$'" "$T/c.err" &&
	! grep -q refused "$T/c.err"; then
	pass iq_files_missing_dir_before_network
else
	fail iq_files_missing_dir_before_network "status $rc: $(head -c 300 "$T/c.err")"
fi
mkdir "$T/ro"
chmod 555 "$T/ro"
chmod 755 "$T"
as_user=() # root writes anywhere: the check runs as nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
"${as_user[@]}" "$WS_BIN" iq read "$closed" --rf A --samples 4K -o "$T/ro/x.ci16" >"$T/r.out" 2>"$T/r.err"
rc=$?
if [ "$(id -u)" -eq 0 ] && [ ${#as_user[@]} -eq 0 ]; then
	skip iq_files_readonly_dir_before_network "running as root without setpriv"
elif [ $rc -eq 2 ] && grep -q "cannot create a file in directory '$T/ro'.*Permission denied" "$T/r.err" &&
	! grep -q refused "$T/r.err" && [ -z "$(ls -A "$T/ro")" ]; then
	pass iq_files_readonly_dir_before_network
else
	fail iq_files_readonly_dir_before_network "status $rc: $(head -c 300 "$T/r.err")"
fi

"$WS_BIN" iq bench "$closed" --trials 6 --samples 4K --json-file "$T/lnk.ci16" >"$T/b.out" 2>"$T/b.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$T/victim")" = secret ] &&
	grep -q -- "--json-file: '$T/lnk.ci16' is a symbolic link" "$T/b.err"; then
	pass iq_files_bench_json_file_link
else
	fail iq_files_bench_json_file_link "status $rc: $(head -c 300 "$T/b.err")"
fi
"$WS_BIN" iq bench "$closed" --trials 6 --samples 4K --svg "$T/adir.ci16" >"$T/v.out" 2>"$T/v.err"
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--svg: '$T/adir.ci16' is a directory" "$T/v.err"; then
	pass iq_files_bench_svg_directory
else
	fail iq_files_bench_svg_directory "status $rc: $(head -c 300 "$T/v.err")"
fi
# D10: input files are opened without blocking; a FIFO is refused at once, by name,
# before any network work (the SigMF one against the live node, where the old code hung;
# the raw one against the closed port).
mkfifo "$T/rec.sigmf-data" "$T/in.cf32"
printf '{"global": {"core:datatype": "ci16_le", "core:version": "1.0.0"}, "captures": [], "annotations": []}' \
	>"$T/rec.sigmf-meta"
for fn in "rec.sigmf-meta $N" "in.cf32 $closed"; do
	f=${fn% *}
	s0=$(date +%s%N)
	timeout 10 "$WS_BIN" iq write "${fn#* }" --rf A -i "$T/$f" >"$T/w.out" 2>"$T/w.err"
	rc=$?
	ms=$((($(date +%s%N) - s0) / 1000000))
	want="'$T/${f%.sigmf-meta}"
	[ "$f" = rec.sigmf-meta ] && want="'$T/rec.sigmf-data"
	if [ $rc -eq 2 ] && [ $ms -lt 2000 ] &&
		grep -q "IQ file $want' is a FIFO: warpspeed reads regular files only" "$T/w.err"; then
		pass "iq_files_write_fifo_refused_${f##*.}"
	else
		fail "iq_files_write_fifo_refused_${f##*.}" "status $rc after $ms ms: $(head -c 300 "$T/w.err")"
	fi
done
# SigMF metadata is strict JSON: a file cut in the middle of its object is refused by
# byte, before any network work (the old reader found "core:datatype" and wrote).
printf '{"global": {"core:datatype": "ci16_le", "core:version": "1.0.0"}, "captures": [' \
	>"$T/cut.sigmf-meta"
head -c 32768 /dev/zero >"$T/cut.sigmf-data"
"$WS_BIN" iq write "$N" --rf A -i "$T/cut.sigmf-meta" >"$T/j.out" 2>"$T/j.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$T/j.out" ] && grep -q "SigMF metadata '$T/cut.sigmf-meta' is not JSON: the document ends where a value was expected at byte 79" "$T/j.err"; then
	pass iq_files_sigmf_cut_meta_refused
else
	fail iq_files_sigmf_cut_meta_refused "status $rc: $(head -c 300 "$T/j.out" "$T/j.err")"
fi
chmod 755 "$T/ro"
finish
