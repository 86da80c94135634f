"""Convert a partitioned CSV or JSON Lines dataset with fxbatch under Apache Spark.

The job ships one fxbatch binary and one lock file with the job (SparkContext.addFile, as spark-submit
--files does), pipes every partition through

    fxbatch convert - -o - --header NAME,... --no-header-output --first-line N --lock rates.lock --frozen \\
        --report DIR/part-....json [CONVERT OPTIONS]

writes the annotated records (Spark's part files, in partition order) and merges the partitions' reports with
`fxbatch report merge` into one report, as a single run over the whole file would give. Any convert options after
`--` go to every partition (`-- --to EUR --amount-field Total`); give the same ones to `rates lock`.

Make the lock first, on one machine, over the whole dataset (it reads only the rate keys):

    fxbatch rates lock data.csv [--source ...] [CONVERT OPTIONS] -o rates.lock

The contract is in docs/cluster.md. Usage (local mode on two cores):

    python fxbatch_spark.py --fxbatch .build/release/fxbatch --lock rates.lock --input data.csv \\
        --output out --reports reports --report total.json --partitions 8 --master 'local[2]' \\
        [-- CONVERT OPTIONS]

Exit status, as one fxbatch run over the whole file: 0 every record converted, 1 some records failed on their own
data (each carries its error), 2 a partition's input was refused (or the job's reports do not add up), 3 the rate
source failed, 64 a usage error (here or in the convert options). A failed partition is named with the lines of
the input it holds, and fxbatch's message names the line in the whole input.
"""

import argparse
import csv
import glob
import io
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import traceback

# What fxbatch's exit statuses mean (Sources/FXBatch/Output/ExitStatus.swift).
STATUS_NAMES = {0: "ok", 1: "record-errors", 2: "file-refused", 3: "source-failed", 64: "usage", 130: "interrupted"}

# Convert options the job sets itself: after `--` they would contradict it.
JOB_OPTIONS = {
    "-o": "the job writes each partition to standard output",
    "--output": "the job writes each partition to standard output",
    "--output-dir": "the job writes each partition to standard output",
    "--lock": "give the lock with --lock before --",
    "--frozen": "every partition runs frozen on the lock",
    "--report": "the job writes each partition's report into --reports",
    "--header": "the job takes the names from the input's header line",
    "--no-header-output": "the job leaves every partition's header out",
    "--first-line": "the job numbers each partition's lines",
    "--format": "give --format before --: the job reads the input with it",
    "--delimiter": "give --delimiter before --: the job reads the header line with it",
    "--decimal-separator": "give --decimal-separator before --: every partition must read amounts alike",
    "--plan": "the job converts",
    "-h": "see fxbatch convert --help",
    "--help": "see fxbatch convert --help",
}
# Options after which fxbatch's status 1 means a budget was exceeded, not records to carry.
BUDGET_OPTIONS = {"--max-errors", "--max-source-errors", "--fail-on"}


class UsageError(Exception):
    pass


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_arguments(argv):
    """The job's own options before `--`; the convert options after it, passed on as they are."""
    own, convert = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
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
    arguments = parser.parse_args(own)
    for word in convert:
        name = word.split("=", 1)[0] if word.startswith("--") else word
        if name in JOB_OPTIONS:
            raise UsageError(f"{name} after --: {JOB_OPTIONS[name]}")
    arguments.convert = convert
    return arguments


def csv_line(names):
    """The names as one CSV line with commas (quoted where they hold a comma or a quote): what --header reads."""
    text = io.StringIO()
    csv.writer(text, lineterminator="").writerow(names)
    return text.getvalue()


def status_text(status):
    return f"{status} ({STATUS_NAMES[status]})" if status in STATUS_NAMES else str(status)


def convert_partition(index, part, setup):
    """Pipes one partition's lines through fxbatch; yields the annotated lines. Fails the task (after writing
    failed-NNNNN.txt into the reports directory) when fxbatch exits with a status the job does not accept."""
    from pyspark import TaskContext

    first_line, count = setup["first_lines"][index], setup["counts"][index]
    binary = os.path.join(setup["files_dir"], setup["binary"])
    if not os.access(binary, os.X_OK):  # the binary may arrive without its executable bit
        try:
            os.chmod(binary, 0o755)
        except OSError:
            pass
    context = TaskContext.get()
    attempt = context.attemptNumber() if context else 0
    report = os.path.join(setup["reports"], f"part-{index:05d}-{socket.gethostname()}-{os.getpid()}-{attempt}.json")
    command = [binary] + setup["command"] + ["--first-line", str(first_line), "--report", report] + setup["convert"]
    process = subprocess.Popen(
        command, cwd=setup["files_dir"], env=setup["environment"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    errors = []

    def feed():
        try:
            for line in part:
                process.stdin.write(line.encode("utf-8") + b"\n")
        except BrokenPipeError:
            pass  # fxbatch stopped reading: its status says why
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        errors.append(process.stderr.read())

    threads = [threading.Thread(target=feed, daemon=True), threading.Thread(target=drain, daemon=True)]
    for thread in threads:
        thread.start()
    for line in iter(process.stdout.readline, b""):
        yield line.rstrip(b"\n").decode("utf-8")
    status = process.wait()
    for thread in threads:
        thread.join()
    if status in setup["accepted"]:
        return
    lines = f"lines {first_line}-{first_line + count - 1}" if count else f"no lines (after line {first_line - 1})"
    message = (
        f"partition {index} ({lines} of {setup['input']}): fxbatch exited {status_text(status)}\n"
        + errors[0].decode("utf-8", "replace").rstrip("\n")
    )
    with open(os.path.join(setup["reports"], f"failed-{index:05d}-{os.getpid()}-{attempt}.txt"), "w") as failed:
        failed.write(f"{status}\n{message}\n")
    raise RuntimeError(message)


def main(argv, spark=None):
    try:
        arguments = parse_arguments(argv)
    except UsageError as error:
        sys.stderr.write(f"fxbatch_spark.py: {error}\n")
        return 64
    data_format = arguments.format or ("jsonl" if arguments.input.endswith((".jsonl", ".ndjson")) else "csv")
    os.makedirs(arguments.reports, exist_ok=True)
    reports = os.path.abspath(arguments.reports)
    # Reports of an earlier job in the directory would be merged with this one's: refuse rather than count twice.
    if glob.glob(os.path.join(reports, "part-*.json")) or glob.glob(os.path.join(reports, "failed-*.txt")):
        sys.stderr.write(f"{arguments.reports} holds reports of an earlier job: give an empty directory\n")
        return 2
    own_spark = spark is None
    if own_spark:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.master(arguments.master).appName("fxbatch").getOrCreate()
    try:
        return run(arguments, data_format, reports, spark)
    finally:
        if own_spark:
            spark.stop()


def run(arguments, data_format, reports, spark):
    from pyspark import SparkFiles

    context = spark.sparkContext
    context.setLogLevel("WARN")
    # One record a line: a CSV field may not hold a line end here (textFile splits at every one).
    lines = context.textFile(arguments.input, minPartitions=arguments.partitions)
    options = ["--format", data_format, "--decimal-separator", arguments.decimal_separator]
    skip = 0
    if data_format == "csv":
        header_line = lines.first()
        names = next(csv.reader([header_line], delimiter=arguments.delimiter))
        delimiter = "tab" if arguments.delimiter == "\t" else arguments.delimiter
        options += ["--header", csv_line(names), "--no-header-output", "--delimiter", delimiter]
        skip = 1
    # Run in the shipped files' directory, the lock named without a directory: the reports name the source as
    # "frozen in the lock file rates.lock" on every executor, and `report merge` refuses parts whose sources differ.
    lock = os.path.basename(arguments.lock)
    command = ["convert", "-", "-o", "-", "-q", "--lock", lock, "--frozen"] + options
    # The options, once on the driver before any partition: a usage error (64) or a header the options cannot
    # read (2) would fail every partition alike.
    check = subprocess.run(
        [os.path.abspath(arguments.fxbatch)] + command + arguments.convert,
        cwd=os.path.dirname(os.path.abspath(arguments.lock)), input=b"", capture_output=True,
    )
    if check.returncode not in (0, 1):
        sys.stderr.write(
            f"fxbatch_spark.py: fxbatch refuses the job before any partition runs, on the header of "
            f"{arguments.input} (exit {status_text(check.returncode)}):\n" + check.stderr.decode("utf-8", "replace")
        )
        return check.returncode

    # Each partition's first line in the input, so that fxbatch's messages name lines of the whole input
    # (--first-line): one pass that counts the lines (as RDD.zipWithIndex does).
    counts = lines.mapPartitions(lambda part: [sum(1 for _ in part)]).collect()
    first_lines = [1 + sum(counts[:index]) for index in range(len(counts))]
    if skip:
        # The header line is the first line of partition 0.
        first_lines[0] += skip
        counts[0] -= skip
        lines = lines.mapPartitionsWithIndex(lambda index, part: itertools.islice(part, skip, None) if index == 0 else part)

    # One binary and one lock for every executor.
    context.addFile(os.path.abspath(arguments.fxbatch))
    context.addFile(os.path.abspath(arguments.lock))
    # The environment of fxbatch replaces the executor's: PATH, TMPDIR for standard input's spool, and
    # FXBATCH_TODAY (reproducible reports) when the driver has them.
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for name in ["TMPDIR", "FXBATCH_TODAY"]:
        if name in os.environ:
            environment[name] = os.environ[name]
    # fxbatch exits 1 when some records failed on their own data (they carry their errors): not a failed task.
    # 3 (the rate source failed), 2 (the input refused) and the rest fail it; so does 1 under a budget
    # (--max-errors, --max-source-errors, --fail-on), where it means the budget was exceeded.
    budget = any(word.split("=", 1)[0] in BUDGET_OPTIONS for word in arguments.convert)
    setup = {
        "first_lines": first_lines,
        "counts": counts,
        "files_dir": os.path.abspath(arguments.files_dir or SparkFiles.getRootDirectory()),
        "binary": os.path.basename(arguments.fxbatch),
        "reports": reports,
        "command": command,
        "convert": arguments.convert,
        "environment": environment,
        "accepted": (0,) if budget else (0, 1),
        "input": arguments.input,
    }
    converted = lines.mapPartitionsWithIndex(lambda index, part: convert_partition(index, part, setup))
    try:
        converted.saveAsTextFile(arguments.output)
    except Exception as error:  # a failed task: its partition and fxbatch's message, as written
        failures = sorted(glob.glob(os.path.join(reports, "failed-*.txt")))
        if not failures:  # Spark failed, not fxbatch: not a status 1 (records), which Python's traceback gives
            sys.stderr.write(f"\nfxbatch_spark.py: the Spark job failed: {error}\n")
            return 2
        statuses = []
        for path in failures:
            with open(path) as failed:
                status, message = failed.read().split("\n", 1)
            statuses.append(int(status))
            sys.stderr.write("\nfxbatch_spark.py: " + message)
        worst = max(statuses, key=lambda status: {1: 1, 3: 2, 2: 3}.get(status, 4))
        return worst if worst in STATUS_NAMES else 2

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
    # The job's status is the merged run's: 1 when records failed on their own data.
    with open(arguments.report) as merged:
        return int(json.load(merged).get("exitStatus", 0))


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except Exception:  # Python would exit 1, which the contract keeps for records that failed on their own data
        traceback.print_exc()
        status = 2
    sys.exit(status)
