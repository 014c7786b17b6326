# Helpers shared by the workloads: timing with medians, peak memory, the result table.
# Sourced by bench/run; expects RUNS and WORK.

ROWS=()                      # "workload|contender|median seconds|peak MiB|note"
declare -A BASELINE_SECONDS  # workload -> median seconds of its floor

# measure WORKLOAD CONTENDER RUNS [--floor] [--prepare 'shell cmd'] -- command args...
# Runs the command RUNS times (the prepare command before each run, untimed), and records
# the median wall time (to the millisecond: /usr/bin/time's %e counts only hundredths, a
# tenth of a workload that takes 0.1 s) and the largest peak resident memory seen
# (/usr/bin/time %M).
measure() {
    local workload=$1 contender=$2 runs=$3
    shift 3
    local floor=0 prepare=":"
    while [[ $1 != "--" ]]; do
        case $1 in
            --floor) floor=1; shift ;;
            --prepare) prepare=$2; shift 2 ;;
            *) echo "measure: unknown option $1" >&2; return 1 ;;
        esac
    done
    shift
    local times=() peak=0 i stats started ended secs kib
    for ((i = 0; i < runs; i++)); do
        eval "$prepare"
        # Untimed: what an earlier run left for the kernel to write back (a contender that
        # writes a file per tile leaves over a hundred megabytes) must not slow this one.
        sync
        stats=$(mktemp)
        started=$(date +%s%N)
        if ! /usr/bin/time -f "%M" -o "$stats" "$@" >"$WORK/last.out" 2>"$WORK/last.err"; then
            echo "bench: $workload / $contender failed:" >&2
            tail -5 "$WORK/last.err" >&2
            rm -f "$stats"
            ROWS+=("$workload|$contender|failed||")
            return 0
        fi
        ended=$(date +%s%N)
        secs=$(awk -v ns=$((ended - started)) 'BEGIN { printf "%.3f", ns / 1e9 }')
        read -r kib < <(tail -1 "$stats")
        rm -f "$stats"
        times+=("$secs")
        ((kib > peak)) && peak=$kib
        echo "bench: $workload / $contender run $((i + 1))/$runs: ${secs}s, $((kib / 1024)) MiB" >&2
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')
    ((floor)) && BASELINE_SECONDS[$workload]=$median
    ROWS+=("$workload|$contender|$median|$((peak / 1024))|")
}

print_table() {
    printf '\n%-28s %-30s %9s %9s %8s\n' "workload" "contender" "median s" "peak MiB" "x floor"
    printf '%s\n' "------------------------------------------------------------------------------------------"
    local row workload contender secs mib ratio base
    for row in "${ROWS[@]}"; do
        IFS='|' read -r workload contender secs mib _ <<<"$row"
        base=${BASELINE_SECONDS[$workload]:-}
        ratio=""
        # Rows under a contender (two spaces: the server's CPU, a throughput) have no ratio.
        if [[ -n $base && $secs != failed && $contender != "  "* ]]; then
            ratio=$(awk -v s="$secs" -v b="$base" 'BEGIN { if (b > 0) printf "%.2f", s / b; else print "-" }')
        fi
        printf '%-28s %-30s %9s %9s %8s\n' "$workload" "$contender" "$secs" "$mib" "$ratio"
    done
}
