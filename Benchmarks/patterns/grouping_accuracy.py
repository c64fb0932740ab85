#!/usr/bin/env python3
"""Grouping accuracy of a log parser on a loghub sample (Zhu et al., ICSE-SEIP 2019).

A line counts as right only when the set of lines in its predicted group is exactly the set
of lines in its true group. Standard library only.

  grouping_accuracy.py to-ndjson STRUCTURED.csv > sample.ndjson
      each line's Content as an NDJSON record (eventMessage), one second apart, in file order
  grouping_accuracy.py score STRUCTURED.csv PREDICTED
      PREDICTED: `diag show --style ndjson --patterns` output (its patternID field), or
      one group label per line; prints the accuracy, the lines and the groups of each side
"""
import csv
import json
import sys
from collections import defaultdict


def read_truth(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def to_ndjson(path):
    base = 1_700_000_000 * 10**9
    out = sys.stdout
    for index, row in enumerate(read_truth(path)):
        record = {
            "timestamp": base + index * 10**9,
            "messageType": "Default",
            "process": row.get("Component") or "loghub",
            "eventMessage": row["Content"],
        }
        out.write(json.dumps(record, ensure_ascii=False) + "\n")


def read_predicted(path):
    labels = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.startswith("{"):
                labels.append(json.loads(line).get("patternID", "<none>"))
            else:
                labels.append(line.split("\t")[0])
    return labels


def grouping_accuracy(truth, predicted):
    if len(truth) != len(predicted):
        raise SystemExit(f"{len(truth)} lines of ground truth but {len(predicted)} predicted")
    members_true = defaultdict(set)
    members_predicted = defaultdict(set)
    for line, (t, p) in enumerate(zip(truth, predicted)):
        members_true[t].add(line)
        members_predicted[p].add(line)
    right = sum(1 for line, (t, p) in enumerate(zip(truth, predicted))
                if members_true[t] == members_predicted[p])
    return right / len(truth), len(members_true), len(members_predicted)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "to-ndjson":
        to_ndjson(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "score":
        truth = [row["EventTemplate"] for row in read_truth(sys.argv[2])]
        accuracy, true_groups, predicted_groups = grouping_accuracy(truth, read_predicted(sys.argv[3]))
        print(f"{accuracy:.4f} {len(truth)} {true_groups} {predicted_groups}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
