#!/usr/bin/env bash
# A sharded `layoutgpu verify` as a Slurm job array: array task i checks shard i of n of the
# candidate order and writes its report and matches to $RESULTS; a merge step afterwards
# prints the report of the whole search (see README.md).
#
#   sbatch --array=1-16 examples/slurm/verify-array.sh                  # the shards
#   sbatch --dependency=afterok:<jobid> --wrap "layoutgpu merge results/report-*.json --out results/matches.txt"
#
#SBATCH --job-name=layoutgpu-verify
#SBATCH --array=1-16
#SBATCH --cpus-per-task=8
#SBATCH --time=01:00:00
#SBATCH --output=layoutgpu-verify-%A-%a.log
# On GPU nodes: #SBATCH --gres=gpu:1 and BACKEND=gpu (the default auto takes a hardware GPU).
set -euo pipefail

# What to search (one string, split on spaces; layouts in notation have no spaces):
VERIFY_ARGS=${VERIFY_ARGS:-"compact --random 100000000 --seed 11 --max-size 65536"}
LAYOUTGPU=${LAYOUTGPU:-layoutgpu}          # e.g. "npx layoutgpu", or "node /opt/layoutgpu/bin/layoutgpu.js"
RESULTS=${RESULTS:-results}                # a directory every node sees (shared file system)
BACKEND=${BACKEND:-auto}

: "${SLURM_ARRAY_TASK_ID:?run this under sbatch --array (or set SLURM_ARRAY_TASK_ID)}"
# n = the number of tasks of the array; k = this task's place in it (1-based whatever the
# array's first index: --array=0-15 and --array=1-16 both work)
N=${SLURM_ARRAY_TASK_COUNT:?SLURM_ARRAY_TASK_COUNT is not set}
K=$(( SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1 ))
export LAYOUTGPU_SHARD="$K/$N"

mkdir -p "$RESULTS"
read -r -a args <<< "$VERIFY_ARGS"
read -r -a cmd <<< "$LAYOUTGPU"
# the report goes to a temporary name first: a half-written report is never merged
"${cmd[@]}" verify "${args[@]}" --backend "$BACKEND" --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --json --out "$RESULTS/matches-$K.txt" > "$RESULTS/report-$K.json.part"
mv "$RESULTS/report-$K.json.part" "$RESULTS/report-$K.json"
