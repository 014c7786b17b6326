# Helpers shared by the workloads: timing with medians, peak memory, the result table.
# Sourced by bench/run; expects RUNS and WORK.

ROWS=()                      # "workload|contender|median seconds|peak MiB|note"
declare -A BASELINE_SECONDS  # workload -> median seconds of its floor

# time_run PREPARE -- command args...
# One timed run: the prepare command first (untimed), then the command; sets RUN_SECONDS (wall
# time to the millisecond: /usr/bin/time's %e counts only hundredths, a tenth of a workload
# that takes 0.1 s) and RUN_KIB (its peak resident memory, /usr/bin/time %M). Fails, with the
# command's last words on stderr, when the command does.
time_run() {
    local prepare=$1 stats started ended
    shift 2
    eval "$prepare"
    # Untimed: what an earlier run left for the kernel to write back (a contender that writes
    # a file per tile leaves over a hundred megabytes) must not slow this one.
    sync
    stats=$(mktemp)
    started=$(date +%s%N)
    if ! /usr/bin/time -f "%M" -o "$stats" "$@" >"$WORK/last.out" 2>"$WORK/last.err"; then
        tail -5 "$WORK/last.err" >&2
        rm -f "$stats"
        return 1
    fi
    ended=$(date +%s%N)
    RUN_SECONDS=$(awk -v ns=$((ended - started)) 'BEGIN { printf "%.3f", ns / 1e9 }')
    read -r RUN_KIB < <(tail -1 "$stats")
    rm -f "$stats"
}

# median of the arguments (seconds).
median_of() {
    printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'
}

# measure WORKLOAD CONTENDER RUNS [--floor] [--prepare 'shell cmd'] -- command args...
# Runs the command RUNS times (the prepare command before each run, untimed), and records
# the median wall time and the largest peak resident memory seen.
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
    local times=() peak=0 i
    for ((i = 0; i < runs; i++)); do
        if ! time_run "$prepare" -- "$@"; then
            echo "bench: $workload / $contender failed" >&2
            ROWS+=("$workload|$contender|failed||")
            return 0
        fi
        times+=("$RUN_SECONDS")
        ((RUN_KIB > peak)) && peak=$RUN_KIB
        echo "bench: $workload / $contender run $((i + 1))/$runs: ${RUN_SECONDS}s, $((RUN_KIB / 1024)) MiB" >&2
    done
    local median
    median=$(median_of "${times[@]}")
    ((floor)) && BASELINE_SECONDS[$workload]=$median
    ROWS+=("$workload|$contender|$median|$((peak / 1024))|")
}

# measure_alternating WORKLOAD RUNS FLOOR_CONTENDER FLOOR_PREPARE FLOOR_COMMAND CONTENDER PREPARE COMMAND
# Like two `measure`s (the first contender the floor), but run after run in turn, so that a
# noisy minute of the machine falls on both: the commands are strings, eval'd.
measure_alternating() {
    local workload=$1 runs=$2 names=("$3" "$6") prepares=("$4" "$7") commands=("$5" "$8")
    local -a times0=() times1=() peaks=(0 0) failed=(0 0)
    local i c
    for ((i = 0; i < runs; i++)); do
        for c in 0 1; do
            ((failed[c])) && continue
            if ! eval "time_run \"\${prepares[c]}\" -- ${commands[c]}"; then
                echo "bench: $workload / ${names[c]} failed" >&2
                failed[c]=1
                continue
            fi
            if ((c == 0)); then times0+=("$RUN_SECONDS"); else times1+=("$RUN_SECONDS"); fi
            ((RUN_KIB > peaks[c])) && peaks[c]=$RUN_KIB
            echo "bench: $workload / ${names[c]} run $((i + 1))/$runs: ${RUN_SECONDS}s, $((RUN_KIB / 1024)) MiB" >&2
        done
    done
    if ((failed[0])); then ROWS+=("$workload|${names[0]}|failed||"); else
        BASELINE_SECONDS[$workload]=$(median_of "${times0[@]}")
        ROWS+=("$workload|${names[0]}|${BASELINE_SECONDS[$workload]}|$((peaks[0] / 1024))|")
    fi
    if ((failed[1])); then ROWS+=("$workload|${names[1]}|failed||"); else
        ROWS+=("$workload|${names[1]}|$(median_of "${times1[@]}")|$((peaks[1] / 1024))|")
    fi
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
