#!/bin/sh
# make test's parts, which make runs side by side: each part's output goes to build/<part>.log and
# its status and wall time to build/parts/<part>; the report prints the failures' logs, then every part's
# status and wall time, and the tests each part skipped (its log's "skipped: <test>: <reason>" lines).
# Usage: tests/parts.sh run <part> <command...>   (exits with the command's status)
#        tests/parts.sh report <part...>           (fails if any part failed or did not run)
set -u
case ${1:-} in
run)
    part=$2
    shift 2
    mkdir -p build/parts
    rm -f "build/parts/$part"
    echo "  TEST  $part (log: build/$part.log)"
    start=$(date +%s.%N)
    "$@" >"build/$part.log" 2>&1
    status=$?
    end=$(date +%s.%N)
    echo "$status $(awk "BEGIN { printf \"%.0f\", $end - $start }")" >"build/parts/$part"
    echo "  DONE  $part: $([ $status -eq 0 ] && echo ok || echo "FAILED ($status)")"
    exit $status
    ;;
report)
    shift
    failed=""
    for part; do
        status=; secs=
        [ -f "build/parts/$part" ] && read -r status secs <"build/parts/$part"
        [ "$status" = 0 ] || failed="$failed $part"
    done
    for part in $failed; do
        if [ -f "build/$part.log" ]; then
            echo "==================== $part failed: build/$part.log"
            tail -n 200 "build/$part.log"
        fi
    done
    echo "part                 status           wall time"
    for part; do
        status=; secs=
        [ -f "build/parts/$part" ] && read -r status secs <"build/parts/$part"
        skipped=$(grep -c '^skipped: ' "build/$part.log" 2>/dev/null)
        case $status in
        0) word=ok ;;
        "") word="did not run"; secs=- ;;
        *) word="FAILED ($status)" ;;
        esac
        [ "${skipped:-0}" -gt 0 ] && [ -n "$status" ] && word="$word, $skipped skipped"
        printf '%-20s %-16s %s s\n' "$part" "$word" "$secs"
    done
    for part; do
        [ -f "build/$part.log" ] && grep '^skipped: ' "build/$part.log" | sed "s/^/$part: /"
    done
    [ -z "$failed" ]
    ;;
*)
    echo "usage: tests/parts.sh run <part> <command...> | report <part...>" >&2
    exit 2
    ;;
esac
