#!/usr/bin/env python3
"""Drain and Brain from logparser3 (LOGPAI's reference implementations) on the same loghub
samples, with the per-dataset settings their own benchmark files publish (tuned for each
dataset: the regular expressions, Drain's similarity threshold and depth, Brain's threshold).
diag has one setting for every log; this shows what tuning buys the published parsers.

  reference_parsers.py DATASET STRUCTURED.csv WORKDIR
      prints: DATASET drain-GA brain-GA   (each side fed the Content column, one line a record)

Runs in the private venv Benchmarks/patterns.sh makes; never used by diag itself.
"""
import contextlib
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grouping_accuracy import grouping_accuracy, read_truth  # noqa: E402

# Per dataset: (regexes, Drain st, Drain depth, Brain threshold, Brain delimiters), as published
# in logparser3's Drain/benchmark.py and Brain/benchmark.py.
SETTINGS = {
    "Apache": ([r"(\d+\.){3}\d+"], 0.5, 4, 4, []),
    "BGL": ([r"core\.\d+"], 0.5, 4, 6, []),
    "HDFS": ([r"blk_-?\d+", r"(\d+\.){3}\d+(:\d+)?"], 0.5, 4, 2, [""]),
    "Hadoop": ([r"(\d+\.){3}\d+"], 0.5, 4, 6, []),
    "HealthApp": ([], 0.2, 4, 4, [""]),
    "OpenStack": ([r"((\d+\.){3}\d+,?)+", r"/.+?\s", r"\d+"], 0.5, 5, 5, []),
    "Spark": ([r"(\d+\.){3}\d+", r"\b[KGTM]?B\b", r"([\w-]+\.){2,}[\w-]+"], 0.5, 4, 4, []),
    "Zookeeper": ([r"(/|)(\d+\.){3}\d+(:\d+)?"], 0.5, 4, 3, []),
}


def labels(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return [row["EventId"] for row in csv.DictReader(handle)]


def main():
    dataset, structured, work = sys.argv[1], sys.argv[2], sys.argv[3]
    from logparser.Brain import LogParser as BrainParser
    from logparser.Drain import LogParser as DrainParser

    rows = read_truth(structured)
    truth = [row["EventTemplate"] for row in rows]
    os.makedirs(work, exist_ok=True)
    name = f"{dataset}.content.log"
    with open(os.path.join(work, name), "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(row["Content"] + "\n")
    regex, st, depth, threshold, delimiter = SETTINGS[dataset]
    results = []
    for label, make in (
        ("drain", lambda out: DrainParser(log_format="<Content>", indir=work, outdir=out, rex=regex, depth=depth, st=st)),
        ("brain", lambda out: BrainParser(logname=dataset, log_format="<Content>", indir=work, outdir=out,
                                          threshold=threshold, delimeter=delimiter, rex=regex)),
    ):
        out = os.path.join(work, label) + "/"
        with contextlib.redirect_stdout(io.StringIO()):
            make(out).parse(name)
        predicted = labels(os.path.join(out, name + "_structured.csv"))
        results.append(grouping_accuracy(truth, predicted)[0])
    print(f"{dataset} {results[0]:.4f} {results[1]:.4f}")


if __name__ == "__main__":
    main()
