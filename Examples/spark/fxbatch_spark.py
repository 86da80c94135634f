"""Convert a partitioned CSV or JSON Lines dataset with fxbatch under Apache Spark.

The job ships one fxbatch binary and one lock file with the job (SparkContext.addFile, as spark-submit
--files does), pipes every partition through

    fxbatch convert - -o - --header NAME,... --no-header-output --lock rates.lock --frozen --report DIR/part-....json

with RDD.pipe, writes the annotated records (Spark's part files, in partition order) and merges the partitions'
reports with `fxbatch report merge` into one report, as a single run over the whole file would give.

Make the lock first, on one machine, over the whole dataset (it reads only the rate keys):

    fxbatch rates lock data.csv [--source ...] -o rates.lock

The contract is in docs/cluster.md. Usage (local mode on two cores):

    python fxbatch_spark.py --fxbatch .build/release/fxbatch --lock rates.lock --input data.csv \
        --output out --reports reports --report total.json --partitions 8 --master 'local[2]'
"""

import argparse
import csv
import glob
import itertools
import os
import shlex
import subprocess
import sys

from pyspark import SparkFiles
from pyspark.sql import SparkSession


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fxbatch", required=True, help="the fxbatch binary to ship")
    parser.add_argument("--lock", required=True, help="the lock file `fxbatch rates lock` wrote")
    parser.add_argument("--input", required=True, help="a CSV file with a header line, or a JSON Lines file")
    parser.add_argument("--format", choices=["csv", "jsonl"], help="default: by the input's extension")
    parser.add_argument("--delimiter", default=",", help="CSV: the field delimiter (given, never detected per part)")
    parser.add_argument("--decimal-separator", default=".", help="the amounts' decimal mark (given, never inferred per part)")
    parser.add_argument("--partitions", type=int, default=4, help="at least this many partitions")
    parser.add_argument("--output", required=True, help="directory of the annotated records (Spark part files)")
    parser.add_argument("--reports", required=True, help="directory the partitions' reports are written to")
    parser.add_argument("--report", required=True, help="the merged report")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument(
        "--files-dir",
        help="where the executors find the shipped files (default: SparkFiles' root, right in local mode; "
        "'.' on YARN or Kubernetes, where --files land in the container's working directory)",
    )
    return parser.parse_args(argv)


def main(argv):
    arguments = parse_arguments(argv)
    data_format = arguments.format or ("jsonl" if arguments.input.endswith((".jsonl", ".ndjson")) else "csv")
    spark = SparkSession.builder.master(arguments.master).appName("fxbatch").getOrCreate()
    context = spark.sparkContext
    context.setLogLevel("WARN")
    # One binary and one lock for every executor.
    context.addFile(os.path.abspath(arguments.fxbatch))
    context.addFile(os.path.abspath(arguments.lock))
    files_dir = os.path.abspath(arguments.files_dir or SparkFiles.getRootDirectory())
    binary = os.path.basename(arguments.fxbatch)
    lock = os.path.basename(arguments.lock)
    os.makedirs(arguments.reports, exist_ok=True)
    reports = os.path.abspath(arguments.reports)
    # Reports of an earlier job in the directory would be merged with this one's: refuse rather than count twice.
    if glob.glob(os.path.join(reports, "part-*.json")):
        sys.stderr.write(f"{arguments.reports} holds reports of an earlier job: give an empty directory\n")
        return 2

    # One record a line: a CSV field may not hold a line end here (textFile splits at every one).
    lines = context.textFile(arguments.input, minPartitions=arguments.partitions)
    options = ["--format", data_format, "--decimal-separator", arguments.decimal_separator]
    if data_format == "csv":
        header_line = lines.first()
        names = next(csv.reader([header_line], delimiter=arguments.delimiter))
        delimiter = "tab" if arguments.delimiter == "\t" else arguments.delimiter
        options += ["--header", ",".join(names), "--no-header-output", "--delimiter", delimiter]
        # The header line is the first line of partition 0.
        lines = lines.mapPartitionsWithIndex(lambda index, part: itertools.islice(part, 1, None) if index == 0 else part)
    # Run in the shipped files' directory, the lock named without a directory: the reports name the source as
    # "frozen in the lock file rates.lock" on every executor, and `report merge` refuses parts whose sources differ.
    convert = ["./" + binary, "convert", "-", "-o", "-", "-q", "--lock", lock, "--frozen"] + options
    # Each partition's report under a name of its own (host and process); the binary may arrive without its
    # executable bit. fxbatch exits 1 when some records failed on their own data (they carry their errors): not a
    # failed task; 3 (the rate source failed), 2 (the input refused) and the rest fail it.
    script = (
        'cd "$FXBATCH_FILES" || exit 2; [ -x "$0" ] || chmod +x "$0" 2>/dev/null || true; '
        '"$0" "$@" --report "$FXBATCH_REPORTS/part-$(uname -n)-$$.json"; status=$?; '
        '[ $status -le 1 ] || exit $status'
    )
    command = "sh -c " + shlex.quote(script) + " " + " ".join(shlex.quote(word) for word in convert)
    # pipe's env replaces the executor's environment: PATH for sh, TMPDIR for standard input's spool, and
    # FXBATCH_TODAY (reproducible reports) when the driver has them.
    environment = {"FXBATCH_REPORTS": reports, "FXBATCH_FILES": files_dir, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for name in ["TMPDIR", "FXBATCH_TODAY"]:
        if name in os.environ:
            environment[name] = os.environ[name]
    converted = lines.pipe(command, env=environment, checkCode=True)
    converted.saveAsTextFile(arguments.output)
    spark.stop()

    # The partitions' reports, merged on the driver: counts, error codes and the rounding reconciliation of one
    # run over the whole file.
    parts = sorted(glob.glob(os.path.join(reports, "part-*.json")))
    partitions = lines.getNumPartitions()
    if len(parts) != partitions:
        # A retried task can leave a second report of its partition (or a lost one, none).
        sys.stderr.write(f"{len(parts)} reports for {partitions} partitions in {arguments.reports}\n")
        return 2
    merge = subprocess.run(
        [arguments.fxbatch, "report", "merge", *parts, "-o", arguments.report], capture_output=True, text=True
    )
    if merge.returncode != 0:
        sys.stderr.write(merge.stderr)
        return 2
    print(f"{len(parts)} partitions converted into {arguments.output}; merged report {arguments.report}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
