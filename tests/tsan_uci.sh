#!/bin/sh
# Drives a ThreadSanitizer build over UCI through every path where threads meet (make tsan):
# fails on any TSan report, a missing reply, or an exit that is not clean.
# Usage: tests/tsan_uci.sh <sennight built with -fsanitize=thread>
set -u
engine=${1:?usage: tests/tsan_uci.sh <sennight built with MODE=tsan>}
dir=$(mktemp -d)
out=$dir/out err=$dir/err fifo=$dir/in
mkfifo "$fifo"
# A write to an engine that died fails with a message instead of killing this script.
trap '' PIPE
# halt_on_error: the first report ends the engine with status 66, so nothing after it passes.
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" "$engine" <"$fifo" >"$out" 2>"$err" &
pid=$!
exec 3>"$fifo"
step=start

fail()
{
    echo "tsan_uci: FAILED at '$step': $*"
    echo "--- engine output (last 20 lines)"
    tail -n 20 "$out"
    echo "--- engine stderr"
    cat "$err"
    kill "$pid" 2>/dev/null
    exec 3>&-
    rm -rf "$dir"
    exit 1
}

send()
{
    printf '%s\n' "$1" >&3 2>/dev/null || fail "the engine no longer reads its input"
}

# Waits (up to a minute: sanitized code is slow) until at least $2 lines start with $1.
wait_for()
{
    i=0
    while [ "$(grep -c "^$1" "$out")" -lt "$2" ]; do
        kill -0 "$pid" 2>/dev/null || fail "the engine ended before '$1' number $2"
        i=$((i + 1))
        [ $i -le 600 ] || fail "no '$1' number $2 within 60 s"
        sleep 0.1
    done
}

# The steps; $bm counts the bestmoves expected so far, $ro the readyoks.
bm=0 ro=0
search_done() { bm=$((bm + 1)); wait_for bestmove $bm; }
ready() { send isready; ro=$((ro + 1)); wait_for readyok $ro; }

step=setup
send uci
wait_for uciok 1
send "setoption name Threads value 4"
send "setoption name Hash value 32"
ready

step="go movetime, isready during search"
send ucinewgame
send "position startpos moves e4e5 e7e6"
send "go movetime 1500"
sleep 0.3
ready
search_done

step="go infinite, isready, stop"
send "go infinite"
sleep 0.5
ready
send stop
search_done

step="MultiPV 3 with a clock"
send "setoption name MultiPV value 3"
send "go wtime 3000 btime 3000 winc 100 binc 100"
search_done
send "setoption name MultiPV value 1"

step="Evaluation material, go depth"
send "setoption name Evaluation value material"
send "go depth 7"
search_done
send "setoption name Evaluation value full"

step="Clear Hash during an infinite search"
send "go infinite"
sleep 0.5
send "setoption name Clear Hash"
search_done

step="Hash and Threads changed during a search"
send "go infinite"
sleep 0.5
send "setoption name Hash value 8"
search_done
send "go movetime 1000"
sleep 0.3
send "setoption name Threads value 3"
search_done
send "setoption name Threads value 4"

step="ucinewgame during a search"
send "go movetime 1000"
sleep 0.3
send ucinewgame
search_done
send "position startpos"

step="ponder, ponderhit"
send "setoption name Ponder value true"
send "position startpos moves e4e5 e7e6 f1e3"
send "go ponder wtime 2000 btime 2000"
sleep 0.5
ready
send ponderhit
search_done

step="ponder, stop"
send "go ponder wtime 2000 btime 2000"
sleep 0.5
send stop
search_done

step="go perft, debug and isready while it counts, stop"
send "go perft 6"
sleep 0.3
send "debug on"
ready
send stop
wait_for "Nodes searched" 1
send "debug off"

step="go nodes, then quit during an infinite search"
send "go nodes 20000"
search_done
send "go infinite"
sleep 0.5
send quit
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1))
    [ $i -le 600 ] || fail "quit did not end the engine within 60 s"
    sleep 0.1
done
wait "$pid"
status=$?
step=exit
[ $status -eq 0 ] || fail "exit status $status (66: a ThreadSanitizer report)"
reports=$(grep -c "WARNING: ThreadSanitizer" "$err")
[ "$reports" -eq 0 ] || fail "$reports ThreadSanitizer reports"
[ "$(grep -c '^bestmove' "$out")" -eq $((bm + 1)) ] || fail "expected $((bm + 1)) bestmoves (the last after quit)"
echo "tsan_uci: $bm searches on 4 threads, a perft, $ro isready, ponder, option changes and quit: no ThreadSanitizer report"
rm -rf "$dir"
