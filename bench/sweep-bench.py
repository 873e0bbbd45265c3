#!/usr/bin/env python3
"""sweep-bench.py: what a sweep costs beyond its runs.

Runs one short model N times (default 1000) in several ways and prints,
for each, the wall time, runs per second and the cost per run:

  loop       `qdevs-cli sweep --jobs 1`: a plain loop in one process
             (compile, run, record; no worker, no message)
  run xN     N separate `qdevs-cli run` processes, one after the other
  jobs 2     two worker processes, records through pipes
  mpi 1, 2   `mpirun -n 1` and `-n 2` (when the build has MPI)

"start" is the wall time of the same command with one run (loading,
starting workers or ranks); the per-run figures leave it out:
ms/run = (wall - start) / N, and "overhead/run", the CPU time each run
costs beyond the plain loop, = ((wall - start) x workers - (wall - start)
of the loop) / N, with workers the number of processes that compute.
Figures, not a test: nothing here fails on time.

Usage: sweep-bench.py [--build DIR] [--runs N] [--repeat R] [--model FILE]
                      [--no-spawn]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time


def wall(argv, env=None):
    """Seconds @argv takes; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, env=env, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("%s: exit status %d\n%s" % (" ".join(argv), done.returncode,
                                            done.stderr.decode()))
    return seconds


def best(repeat, func):
    """The least of @repeat timings: the one least disturbed."""
    return min(func() for _ in range(repeat))


def has_mpi(build):
    """Whether @build was configured with -Dmpi=enabled."""
    path = os.path.join(build, "meson-info", "intro-buildoptions.json")
    try:
        with open(path, encoding="utf-8") as f:
            options = json.load(f)
    except OSError:
        return False
    return any(o["name"] == "mpi" and o["value"] == "enabled" for o in options)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--model",
                        default=os.path.join(root, "data", "examples",
                                             "lotka-volterra.qdevs"))
    parser.add_argument("--no-spawn", action="store_true",
                        help="leave out the N separate qdevs-cli run")
    args = parser.parse_args()
    cli = os.path.join(args.build, "app", "qdevs-cli")
    n = args.runs
    sweep = [cli, "sweep", args.model, "--samples", str(n)]

    def measure(name, workers, prefix, options, env=None):
        """Times the sweep of N runs and of one run."""
        full = best(args.repeat, lambda: wall(prefix + sweep + options, env))
        one = best(args.repeat, lambda: wall(
            prefix + sweep[:-1] + ["1"] + options, env))
        rows.append((name, workers, full, one))

    rows = []
    measure("loop", 1, [], ["--jobs", "1"])
    single = wall([cli, "run", args.model])
    if not args.no_spawn:
        rows.append(("run x%d" % n, 1, sum(
            wall([cli, "run", args.model]) for _ in range(n)), single))
    measure("jobs 2", 2, [], ["--jobs", "2"])
    mpirun = shutil.which("mpirun")
    if has_mpi(args.build) and mpirun is not None:
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        for ranks in (1, 2):
            measure("mpi %d" % ranks, ranks,
                    [mpirun, "--oversubscribe", "-n", str(ranks)], [], env)
    else:
        print("# %s has no MPI (configure it with -Dmpi=enabled): "
              "no MPI rows" % args.build)

    print("# %d runs of %s, best of %d, %d cores" % (
        n, os.path.basename(args.model), args.repeat, os.cpu_count()))
    loop = rows[0][2] - rows[0][3]
    print("%-10s %7s %9s %9s %10s %9s %14s" % (
        "how", "workers", "wall (s)", "start (s)", "runs/s", "ms/run",
        "overhead/run"))
    for name, workers, seconds, start in rows:
        # The process-per-run loop pays its start in every run.
        runs = seconds if name.startswith("run") else max(seconds - start, 1e-9)
        overhead = (runs * workers - loop) / n * 1e3
        print("%-10s %7d %9.3f %9.3f %10.1f %9.3f %11.3f ms" % (
            name, workers, seconds, start, n / runs, runs / n * 1e3, overhead))


if __name__ == "__main__":
    main()
