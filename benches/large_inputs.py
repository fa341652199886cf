#!/usr/bin/env python3
"""Generates the large logs of issue 13's memory figures (peak RSS of
`reckon ingest`): a 2 GiB generic CSV, a 3 GiB JSONL whose runs all have
distinct params, and a 2 GiB console log (noise with a "Serving Benchmark
Result" block every ~1 MB). Usage: large_inputs.py csv|jsonl|console OUT.
Measure with `/usr/bin/time -v target/release/reckon --db DB ingest OUT`
and delete the files afterwards."""
import random
import sys

GIB = 1 << 30


def csv(out):
    rng = random.Random(13)
    size = 2 * GIB
    header = "config,concurrency,host,output_throughput,mean_ttft_ms,median_ttft_ms,p99_ttft_ms," \
             "mean_tpot_ms,p99_tpot_ms,mean_itl_ms,p99_itl_ms,duration_s,request_throughput\n"
    written = out.write(header)
    configs = ["baseline", "eagle-topk1-v2", "eagle-topk4-v1", "spec-v3"]
    lines = []
    while written < size:
        c = rng.choice(configs)
        conc = rng.choice([1, 2, 4, 8, 16, 32, 64, 128])
        vals = ",".join(f"{rng.uniform(1, 1000):.4f}" for _ in range(10))
        line = f"{c},{conc},node-{rng.randrange(64):02d}.cluster.example,{vals}\n"
        lines.append(line)
        written += len(line)
        if len(lines) == 10000:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))


def jsonl(out):
    rng = random.Random(13)
    size = 3 * GIB
    written = 0
    i = 0
    lines = []
    while written < size:
        info = ",".join(f'"knob_{k}": {rng.randrange(1000)}' for k in range(30))
        line = (
            f'{{"run_id": "run-{i:09d}", "config": "cfg-{i:09d}", "max_concurrency": {rng.choice([1, 8, 64])}, '
            f'"server_info": {{{info}}}, "output_throughput": {rng.uniform(1, 1000):.4f}, '
            f'"mean_ttft_ms": {rng.uniform(1, 1000):.4f}, "p99_ttft_ms": {rng.uniform(1, 1000):.4f}}}\n'
        )
        lines.append(line)
        written += len(line)
        i += 1
        if len(lines) == 10000:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))


BLOCK = """
============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 {conc}
Successful requests:                     16
Benchmark duration (s):                  171.85
Total input tokens:                      16000
Total generated tokens:                  15999
Request throughput (req/s):              0.09
Output token throughput (tok/s):         {tput:.2f}
---------------Time to First Token----------------
Mean TTFT (ms):                          {ttft:.2f}
Median TTFT (ms):                        176.20
P99 TTFT (ms):                           454.70
==================================================
"""


def console(out):
    rng = random.Random(13)
    size = 2 * GIB
    written = 0
    i = 0
    while written < size:
        noise = "".join(
            f"[2026-11-21 08:{j // 60 % 60:02d}:{j % 60:02d}] INFO scheduler: step {j} batch=64 tokens=4096 free_kv=0.{j % 97:02d}\n"
            for j in range(i, i + 12000)
        )
        i += 12000
        block = BLOCK.format(conc=rng.choice([1, 8, 64]), tput=rng.uniform(1, 1000), ttft=rng.uniform(1, 500))
        written += out.write(noise) + out.write(block)


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    with open(path, "w", buffering=1 << 22) as f:
        {"csv": csv, "jsonl": jsonl, "console": console}[kind](f)
