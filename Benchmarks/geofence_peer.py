#!/usr/bin/env python3
"""Compare Whereabouts' geofence query with Shapely 2's STRtree (GEOS) on the same queries.

Runs `whereabouts bench geofence --export` to build one query set (regions, fixes and the
engine's answers to "which regions may this fix be in, given its accuracy"), answers the same
queries the way a Python backend would (an STRtree of region centres in a local metric projection,
a `dwithin` candidate query, then an exact haversine check), checks that both answer identically,
and prints the per-query time ratio. With --json the last line is one JSON object.
"""
import argparse
import csv
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import numpy as np
    import shapely
    from shapely import STRtree
except ImportError:
    sys.exit("geofence_peer.py needs Shapely 2 and numpy: pip install shapely")

EARTH_RADIUS = 6_371_008.8


def haversine(lat1, lon1, lat2, lon2):
    """Great-circle distance in metres (numpy arrays or scalars, degrees in)."""
    p1, p2 = np.radians(lat1), np.radians(lat2)
    dp, dl = p2 - p1, np.radians(lon2 - lon1)
    h = np.sin(dp / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * np.arcsin(np.minimum(1.0, np.sqrt(h)))


def run_swift(args, folder):
    """Runs the Swift benchmark with --export and returns its JSON summary."""
    root = Path(__file__).resolve().parent.parent
    command = ["swift", "run", "-c", "release", "whereabouts", "bench", "geofence", "--regions", str(args.regions),
               "--layout", args.layout, "--fixes", str(args.fixes), "--export", folder, "--json"]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        sys.exit(2)
    print(done.stdout.rstrip().rsplit("\n", 1)[0])
    return json.loads(done.stdout.strip().splitlines()[-1])


def read_export(folder):
    """Reads regions.csv, fixes.csv and answers.csv."""
    with open(Path(folder) / "regions.csv") as f:
        rows = list(csv.reader(f))[1:]
    ids = np.array([r[0] for r in rows])
    regions = np.array([[float(r[1]), float(r[2]), float(r[3])] for r in rows])
    fixes = np.loadtxt(Path(folder) / "fixes.csv", delimiter=",", skiprows=1, ndmin=2)
    with open(Path(folder) / "answers.csv") as f:
        answers = [row[1].split(";") if row[1] else [] for row in list(csv.reader(f))[1:]]
    return ids, regions, fixes, answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--regions", type=int, default=1_000_000)
    parser.add_argument("--layout", choices=["uniform", "clustered"], default="uniform")
    parser.add_argument("--fixes", type=int, default=20_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object as the last line")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        ours = run_swift(args, folder)
        ids, regions, fixes, answers = read_export(folder)

    lat0 = regions[:, 0].mean()
    scale_x = math.radians(1) * EARTH_RADIUS * math.cos(math.radians(lat0))
    scale_y = math.radians(1) * EARTH_RADIUS
    lon0 = regions[:, 1].mean()
    centres = shapely.points((regions[:, 1] - lon0) * scale_x, (regions[:, 0] - lat0) * scale_y)
    started = time.perf_counter()
    tree = STRtree(centres)
    build = time.perf_counter() - started
    max_radius = regions[:, 2].max()

    def query(lat, lon, accuracy):
        reach = max_radius + accuracy
        point = shapely.Point((lon - lon0) * scale_x, (lat - lat0) * scale_y)
        candidates = tree.query(point, predicate="dwithin", distance=reach * 1.01 + 5)
        if len(candidates) == 0:
            return candidates
        d = haversine(lat, lon, regions[candidates, 0], regions[candidates, 1])
        return candidates[d - regions[candidates, 2] <= accuracy]

    times, mismatches, examples = [], 0, []
    for i, (lat, lon, accuracy) in enumerate(fixes):
        started = time.perf_counter_ns()
        found = query(lat, lon, accuracy)
        times.append((time.perf_counter_ns() - started) / 1000)
        theirs = sorted(ids[found].tolist())
        if theirs != answers[i]:
            mismatches += 1
            if len(examples) < 5:
                examples.append((i, theirs, answers[i]))

    median = statistics.median(times)
    p99 = sorted(times)[int(len(times) * 0.99)]
    ours_median = ours.get("queryMicroseconds", ours.get("evaluateMedianMicroseconds"))
    print(f"Shapely {shapely.__version__} STRtree: build {build:.2f} s, query median {median:.1f} µs, p99 {p99:.1f} µs")
    print(f"Whereabouts query median {ours_median:.2f} µs: {median / ours_median:.0f}× faster per query")
    print("identical answers: " + ("yes" if mismatches == 0 else f"NO, {mismatches} fixes differ"))
    for i, theirs, mine in examples:
        print(f"  fix {i}: shapely {theirs} whereabouts {mine}")
    if args.json:
        print(json.dumps({
            "peer": "shapely-strtree", "shapely": shapely.__version__, "regions": args.regions, "layout": args.layout,
            "fixes": len(fixes), "shapelyBuildSeconds": round(build, 3), "shapelyQueryMedianMicroseconds": round(median, 2),
            "shapelyQueryP99Microseconds": round(p99, 2), "whereaboutsQueryMedianMicroseconds": ours_median,
            "ratio": round(median / ours_median, 1), "mismatches": mismatches,
        }, sort_keys=True))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
