#!/usr/bin/env bash
# Tests of tilespace-mpi (tools/mpi/), one case per ctest test (tests/CMakeLists.txt):
#
#   mpi_tests.sh CASE MPIEXEC TILESPACE_MPI TILESPACE WORKDIR
#
#   small        2x4, 2x5 and 3x3, goal blank on the last cell and on another one, on 1 to 4
#                processes: the file is byte for byte `tilespace build --bits 2`'s (cmp); every
#                process expands states of the largest layer (the board is dealt to all of them,
#                even 2x4's 5 units), and on 2x5 every layer of at least 100,000 states is
#                balanced (the most states one process expanded over the fewest: at most 1.1)
#   reference    the threaded 3x4 table, for the cases below (a ctest fixture)
#   balance      3x4 on 2 to 4 processes: cmp with the reference, and every layer of at least
#                100,000 states balanced (at most 1.1, from the --progress lines)
#   up_to_date   an existing valid table is kept ("up to date: FILE", the file untouched), as
#                `tilespace build` keeps it, and rebuilt with --force; a byte table of the same
#                goal is rebuilt as a two-bit one; a corrupt one is exit 3 naming it
#   resume       3x4 on 2 processes with --checkpoint-every 1: SIGKILL mpirun at a random moment
#                after the first checkpoint (possibly during a save), then --resume; cmp with
#                the reference
#   files        a folder where the table goes: exit 3; with --force, a database that cannot be
#                renamed into place: exit 3, no temporary left, the checkpoints kept; those
#                checkpoints under the 3x3 name, with their processes swapped, or one missing:
#                exit 3; then --resume finishes the 2x5 table (cmp); bad input (a bad goal,
#                tilespace's --blank) is exit 2, one line
#   killed_rank  SIGKILL one process of a 3x4 build: mpirun exits non-zero within 30 s
#
# Every process this script starts is stopped by its pid.
set -euo pipefail

[[ $# -eq 5 ]] || { echo "usage: $0 CASE MPIEXEC TILESPACE_MPI TILESPACE WORKDIR" >&2; exit 2; }
case_name=$1 mpiexec=$2 mpi_tool=$3 tilespace=$4 work=$5
mpirun=("$mpiexec" --allow-run-as-root --oversubscribe)

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# The canonical goal of a WxH board with the blank on `cell`: 1..N-1 in row-major order.
goal_text() {
  local board=$1 cell=$2 w h n t=1 tiles=()
  w=${board%x*} h=${board#*x} n=$((w * h))
  for ((c = 0; c < n; ++c)); do
    if ((c == cell)); then tiles+=(0); else tiles+=("$t"); t=$((t + 1)); fi
  done
  echo "${tiles[*]}"
}

# A goal's tiles as rows ("1 2/3 4/..."): the board's shape without --board.
goal_rows() {
  local board=$1 w i=0 text="" t
  w=${board%x*}
  for t in $2; do
    if ((i > 0)); then if ((i % w == 0)); then text+="/"; else text+=" "; fi; fi
    text+=$t
    i=$((i + 1))
  done
  echo "$text"
}

# The one table file in a folder.
table_in() {
  local files=("$1"/*.tsdb)
  [[ ${#files[@]} -eq 1 && -f ${files[0]} ]] || fail "expected one table in $1, found: ${files[*]}"
  echo "${files[0]}"
}

# The worst balance of a run's layers of at least 100,000 states, from its --progress lines
# ("per process FEWEST..MOST"): the most states one process expanded over the fewest ("none"
# without such layers, "inf" if a process expanded none).
worst_balance() {
  awk '/ per process / {
         for (i = 1; i <= NF; ++i) if ($i == "process") split($(i + 1), r, /\.\./)
         if ($3 < 100000) next
         if (r[1] == 0) { inf = 1; next }
         q = r[2] / r[1]; if (q > w) w = q
       }
       END { if (inf) print "inf"; else if (w == "") print "none"; else printf "%.3f\n", w }' "$1"
}

# Fails unless the worst balance of the run in LOG is at most 1.1.
check_balance() {
  local log=$1 what=$2 worst
  worst=$(worst_balance "$log")
  echo "$what: worst balance $worst"
  [[ $worst != none && $worst != inf ]] && awk -v w="$worst" 'BEGIN { exit !(w <= 1.1) }' ||
    { grep ' per process ' "$log" >&2; fail "$what: a layer of at least 100,000 states is unbalanced ($worst)"; }
}

# The fewest states one process expanded in the largest layer of the run in LOG.
fewest_in_largest() {
  awk '/ per process / {
         for (i = 1; i <= NF; ++i) if ($i == "process") split($(i + 1), r, /\.\./)
         if ($3 > most) { most = $3; fewest = r[1] }
       }
       END { print fewest + 0 }' "$1"
}

# Runs tilespace-mpi on NP processes; stdout and stderr to $out/NAME.log; returns its exit code.
run_mpi() {
  local np=$1 log=$2
  shift 2
  local rc=0
  "${mpirun[@]}" -np "$np" "$mpi_tool" "$@" >"$log" 2>&1 || rc=$?
  return $rc
}

# Expects exit code 3 and `pattern` in the log.
expect_data_error() {
  local log=$1 pattern=$2 rc=$3
  [[ $rc -eq 3 ]] || { cat "$log" >&2; fail "exit code $rc, expected 3"; }
  grep -q -- "$pattern" "$log" || { cat "$log" >&2; fail "no '$pattern' in the output"; }
  [[ $(grep -c '^tilespace-mpi:' "$log") -eq 1 ]] || { cat "$log" >&2; fail "expected one tilespace-mpi line"; }
}

# Waits until none of the pids runs (at most 10 s), then kills what is left.
reap() {
  local pid i
  for ((i = 0; i < 100; ++i)); do
    local alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  echo "processes still running 10 s after mpirun was killed: $*" >&2
  kill -9 "$@" 2>/dev/null || true
}

out=$work/$case_name
rm -rf "$out"
mkdir -p "$out"
start=$SECONDS

case $case_name in
  small)
    for spec in 2x4:7 2x4:0 2x5:9 2x5:3 3x3:8 3x3:4; do
      board=${spec%:*} cell=${spec#*:}
      goal=$(goal_text "$board" "$cell")
      "$tilespace" build --board "$board" --bits 2 --goal "$goal" --db "$out/ref-$board-$cell" >/dev/null
      ref=$(table_in "$out/ref-$board-$cell")
      for np in 1 2 3 4; do
        db=$out/mpi-$board-$cell-$np
        # The last cell by the default goal, the other one by --goal (with --board or without).
        if ((cell == ${board%x*} * ${board#*x} - 1)); then
          args=(--board "$board") # the default goal
        elif ((np % 2)); then
          args=(--board "$board" --goal "$goal")
        else
          args=(--goal "$(goal_rows "$board" "$goal")")
        fi
        run_mpi "$np" "$db.log" build "${args[@]}" --db "$db" --progress ||
          { cat "$db.log" >&2; fail "$board blank $cell on $np"; }
        cmp "$ref" "$db/$(basename "$ref")" || fail "$board blank $cell on $np processes differs from the threaded table"
        fewest=$(fewest_in_largest "$db.log")
        ((np == 1 || fewest > 0)) || { cat "$db.log" >&2; fail "$board on $np: a process expanded nothing"; }
        [[ $board != 2x5 || $np == 1 ]] || check_balance "$db.log" "$board blank $cell on $np processes"
      done
      echo "$board blank $cell: identical on 1-4 processes, every process busy"
    done
    ;;

  reference)
    "$tilespace" build --board 3x4 --bits 2 --db "$work/reference-3x4"
    ;;

  balance)
    ref=$(table_in "$work/reference-3x4")
    # One process is `small`'s case (byte-identical tables on 1-4 processes, and the balance of
    # 2x5's layers on 2-4); here the deal's balance on 3x4, on an even and an odd number of
    # processes (4, oversubscribed on two cores, took a third of the case's 57 s of CPU).
    for np in 2 3; do
      db=$out/np$np
      run_mpi "$np" "$db.log" build --board 3x4 --db "$db" --progress || { cat "$db.log" >&2; fail "3x4 on $np"; }
      cmp "$ref" "$db/$(basename "$ref")" || fail "3x4 on $np processes differs from the threaded table"
      grep -q "^tilespace-mpi: 3x4 dealt to $np process\(es\)\?: 58472 units of 128 words, round-robin$" "$db.log" ||
        { cat "$db.log" >&2; fail "no line saying the deal"; }
      check_balance "$db.log" "3x4 on $np processes"
      tail -n 1 "$db.log"
    done
    ;;

  up_to_date)
    name=2x5-1234567890.tsdb
    "$tilespace" build --board 2x5 --bits 2 --db "$out/ref" >/dev/null
    run_mpi 2 "$out/first.log" build --board 2x5 --db "$out/db" || { cat "$out/first.log" >&2; fail "first build"; }
    grep -q "^built $out/db/$name: 1814400 states, radius 55, 2 bits, .*, 2 processes$" "$out/first.log" ||
      { cat "$out/first.log" >&2; fail "no 'built' line"; }
    before=$(stat -c '%i %Y.%y' "$out/db/$name")
    # Kept: by tilespace-mpi and by tilespace build --bits 2 alike; the file untouched.
    run_mpi 2 "$out/again.log" build --board 2x5 --db "$out/db" || { cat "$out/again.log" >&2; fail "second build"; }
    [[ $(cat "$out/again.log") == "up to date: $out/db/$name" ]] || { cat "$out/again.log" >&2; fail "not up to date"; }
    [[ $("$tilespace" build --board 2x5 --bits 2 --db "$out/db") == "up to date: $out/db/$name (serves the blank on cells 0 1 8 9)" ]] ||
      fail "tilespace build does not keep the file tilespace-mpi wrote"
    [[ $(stat -c '%i %Y.%y' "$out/db/$name") == "$before" ]] || fail "the kept file was touched"
    # --force rebuilds it (a new file renamed into place), the same bytes.
    run_mpi 3 "$out/force.log" build --board 2x5 --db "$out/db" --force || { cat "$out/force.log" >&2; fail "--force"; }
    grep -q "^built .*3 processes$" "$out/force.log" || { cat "$out/force.log" >&2; fail "--force did not build"; }
    [[ $(stat -c '%i %Y.%y' "$out/db/$name") != "$before" ]] || fail "--force left the file as it was"
    cmp "$out/ref/$name" "$out/db/$name" || fail "the rebuilt table differs"
    # A byte table of the same goal is rebuilt as a two-bit one, as `tilespace build --bits 2` does.
    "$tilespace" build --board 2x5 --bits 8 --db "$out/bytes" >/dev/null
    run_mpi 2 "$out/bytes.log" build --board 2x5 --db "$out/bytes" || { cat "$out/bytes.log" >&2; fail "over a byte table"; }
    grep -q "^built " "$out/bytes.log" || { cat "$out/bytes.log" >&2; fail "the byte table was kept"; }
    cmp "$out/ref/$name" "$out/bytes/$name" || fail "the table built over a byte table differs"
    # A corrupt table: exit 3, one line naming it; --force replaces it.
    printf 'x' | dd of="$out/db/$name" bs=1 seek=300000 conv=notrunc status=none
    rc=0
    run_mpi 2 "$out/corrupt.log" build --board 2x5 --db "$out/db" || rc=$?
    expect_data_error "$out/corrupt.log" "$out/db/$name" $rc
    run_mpi 2 "$out/fixed.log" build --board 2x5 --db "$out/db" --force || { cat "$out/fixed.log" >&2; fail "--force over a corrupt table"; }
    cmp "$out/ref/$name" "$out/db/$name" || fail "the table rebuilt over a corrupt one differs"
    echo "kept when up to date, rebuilt with --force, over a byte table and a corrupt one"
    ;;

  resume)
    ref=$(table_in "$work/reference-3x4")
    name=$(basename "$ref")
    "${mpirun[@]}" -np 2 "$mpi_tool" build --board 3x4 --db "$out" --checkpoint-every 1 --progress \
      >"$out/killed.log" 2>&1 &
    mpirun_pid=$!
    for ((i = 0; i < 600; ++i)); do
      [[ -f $out/$name.ckpt.0of2 && -f $out/$name.ckpt.1of2 ]] && break
      kill -0 $mpirun_pid 2>/dev/null || { cat "$out/killed.log" >&2; fail "the build ended before its first checkpoint"; }
      sleep 0.1
    done
    delay=$((RANDOM % 2000))
    echo "first checkpoint saved; SIGKILL mpirun $delay ms later"
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    ranks=$(pgrep -P $mpirun_pid || true)
    kill -0 $mpirun_pid 2>/dev/null || { cat "$out/killed.log" >&2; fail "the build ended before the kill"; }
    kill -9 $mpirun_pid
    wait $mpirun_pid 2>/dev/null || true
    # shellcheck disable=SC2086
    [[ -z $ranks ]] || reap $ranks
    [[ ! -f $out/$name ]] || fail "the killed build left a table"
    tail -n 3 "$out/killed.log"
    ls "$out"
    run_mpi 2 "$out/resumed.log" build --board 3x4 --db "$out" --resume --checkpoint-every 1 --progress ||
      { cat "$out/resumed.log" >&2; fail "--resume failed"; }
    grep 'resuming\|checkpoint of depth' "$out/resumed.log" || true
    cmp "$ref" "$out/$name" || fail "the resumed 3x4 table differs from the threaded one"
    leftovers=$(find "$out" -name "$name.*")
    [[ -z $leftovers ]] || fail "left behind: $leftovers"
    echo "killed and resumed: identical"
    ;;

  files)
    # Every run here fails on purpose, and Open MPI waits out its kill delay (1 s, twice) after a
    # process exits non-zero before it returns: without the delay the case takes 3 s, not 13. The
    # processes agree on the failure and exit by themselves; nothing is left to kill.
    mpirun+=(--mca odls_base_sigkill_timeout 0)
    name=2x5-1234567890.tsdb
    "$tilespace" build --board 2x5 --bits 2 --db "$out/ref" >/dev/null
    # A folder where the table goes: not a table to keep (exit 3, as for `tilespace build`); with
    # --force the rename fails after every checkpoint was saved.
    mkdir -p "$out/db/$name"
    rc=0
    run_mpi 2 "$out/in-the-way.log" build --board 2x5 --db "$out/db" || rc=$?
    expect_data_error "$out/in-the-way.log" "$name: not a regular file" $rc
    rc=0
    run_mpi 2 "$out/rename.log" build --board 2x5 --db "$out/db" --checkpoint-every 0.000001 --force || rc=$?
    expect_data_error "$out/rename.log" "cannot rename .* into place" $rc
    [[ -z $(find "$out/db" -name "*.tmp.*") ]] || fail "a temporary file was left"
    [[ -f $out/db/$name.ckpt.0of2 && -f $out/db/$name.ckpt.1of2 ]] || fail "the checkpoints were not kept"
    rmdir "$out/db/$name"
    cp "$out/db/$name.ckpt.0of2" "$out/db/$name.ckpt.1of2" "$out/"

    # A foreign checkpoint: the 2x5 ones under the 3x3 table's name.
    mkdir -p "$out/foreign"
    cp "$out/$name.ckpt.0of2" "$out/foreign/3x3-123456780.tsdb.ckpt.0of2"
    cp "$out/$name.ckpt.1of2" "$out/foreign/3x3-123456780.tsdb.ckpt.1of2"
    rc=0
    run_mpi 2 "$out/foreign.log" build --board 3x3 --db "$out/foreign" --resume || rc=$?
    expect_data_error "$out/foreign.log" "a checkpoint of the 2x5 board, not 3x3" $rc

    # The two processes' files swapped.
    mkdir -p "$out/swapped"
    cp "$out/$name.ckpt.0of2" "$out/swapped/$name.ckpt.1of2"
    cp "$out/$name.ckpt.1of2" "$out/swapped/$name.ckpt.0of2"
    rc=0
    run_mpi 2 "$out/swapped.log" build --board 2x5 --db "$out/swapped" --resume || rc=$?
    expect_data_error "$out/swapped.log" "a checkpoint of process 1 of 2 .*not of process 0 of 2" $rc

    # One process's file missing.
    mkdir -p "$out/missing"
    cp "$out/$name.ckpt.1of2" "$out/missing/"
    rc=0
    run_mpi 2 "$out/missing.log" build --board 2x5 --db "$out/missing" --resume || rc=$?
    expect_data_error "$out/missing.log" "ckpt.0of2: missing, while 1 of the 2 processes" $rc

    # The kept checkpoints finish the table.
    run_mpi 2 "$out/resume.log" build --board 2x5 --db "$out/db" --resume || { cat "$out/resume.log" >&2; fail "--resume"; }
    grep -q "resuming from" "$out/resume.log" || fail "did not resume"
    cmp "$out/ref/$name" "$out/db/$name" || fail "the resumed 2x5 table differs from the threaded one"
    [[ -z $(find "$out/db" -name "$name.*") ]] || fail "checkpoints left after the table was saved"

    # Bad input: exit 2, one line. tilespace-mpi reads --board and --goal as `tilespace build`
    # does, and has no --blank (tilespace's --blank names the blank of named tiles).
    rc=0
    run_mpi 2 "$out/input.log" build --board 3x3 --goal "1 2 3 4 5 6 7 8 9" --db "$out/db" || rc=$?
    [[ $rc -eq 2 && $(grep -c '^tilespace-mpi: error: .*goal' "$out/input.log") -eq 1 && $(grep -c "^tilespace-mpi:" "$out/input.log") -eq 1 ]] ||
      { cat "$out/input.log" >&2; fail "bad --goal: exit code $rc"; }
    rc=0
    run_mpi 2 "$out/blank.log" build --board 3x3 --blank 4 --db "$out/db" || rc=$?
    [[ $rc -eq 2 && $(grep -c '^tilespace-mpi: error: .*--blank' "$out/blank.log") -eq 1 && $(grep -c "^tilespace-mpi:" "$out/blank.log") -eq 1 ]] ||
      { cat "$out/blank.log" >&2; fail "--blank: exit code $rc"; }
    echo "write error, foreign, swapped and missing checkpoints refused; resumed table identical; bad input refused"
    ;;

  killed_rank)
    "${mpirun[@]}" -np 2 "$mpi_tool" build --board 3x4 --db "$out" --progress >"$out/killed.log" 2>&1 &
    mpirun_pid=$!
    for ((i = 0; i < 300; ++i)); do
      grep -qs 'depth   5' "$out/killed.log" && break
      sleep 0.1
    done
    mapfile -t ranks < <(pgrep -P $mpirun_pid || true)
    [[ ${#ranks[@]} -eq 2 ]] || fail "expected 2 processes under mpirun, found: ${ranks[*]}"
    kill -9 "${ranks[1]}"
    killed_at=$SECONDS
    rc=0
    for ((i = 0; i < 300; ++i)); do
      kill -0 $mpirun_pid 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 $mpirun_pid 2>/dev/null; then
      kill -9 $mpirun_pid "${ranks[0]}" 2>/dev/null || true
      fail "mpirun still runs 30 s after one of its processes was killed"
    fi
    wait $mpirun_pid || rc=$?
    [[ $rc -ne 0 ]] || fail "mpirun exited 0 after one of its processes was killed"
    reap "${ranks[0]}"
    echo "one process killed: mpirun exited with $rc after $((SECONDS - killed_at)) s"
    ;;

  *)
    fail "unknown case $case_name"
    ;;
esac
echo "$case_name: passed in $((SECONDS - start)) s"
