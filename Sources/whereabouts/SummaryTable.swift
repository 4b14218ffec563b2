import WhereaboutsSimulator

/// Renders per-strategy scores as an aligned text table.
enum SummaryTable {
    static func render(_ rows: [StrategyAggregate]) -> String {
        let header = [
            "strategy", "runs", "recall", "precision", "latency med", "latency p95", "energy ratio", "track err m", "bytes/h travel",
        ]
        let body = rows.map { row in
            [
                row.strategy, "\(row.runs)", fixed(row.recall, 3), fixed(row.precision, 3),
                seconds(row.latencyMedian), seconds(row.latencyP95),
                fixed(row.energyRatio, 3), row.trackErrorMean.map { fixed($0, 1) } ?? "-",
                row.bytesPerTravelHour.map { "\(Int($0.rounded()))" } ?? "-",
            ]
        }
        return aligned(header, body)
    }

    /// How precisely each strategy's runs measure its pooled figures (``ScoreIntervals``), one row per
    /// list of runs, under a line saying what was resampled; a line saying why there are none when the
    /// runs come from a single trace.
    static func renderIntervals(_ runs: [[RunReport]]) -> String {
        let rows = runs.compactMap { reports in ScoreIntervals(reports: reports).map { (reports[0].strategy, $0) } }
        guard let first = rows.first?.1 else {
            return "no intervals: the runs come from one trace, and resampling needs two or more"
        }
        func range(_ interval: ClosedRange<Double>) -> String { "\(fixed(interval.lowerBound, 3))–\(fixed(interval.upperBound, 3))" }
        let body = rows.map { strategy, intervals in
            [
                strategy, range(intervals.recall), range(intervals.precision),
                intervals.latencyP95.map { "\(Int($0.lowerBound))–\(Int($0.upperBound)) s" } ?? "-", range(intervals.energyRatio),
            ]
        }
        let heading =
            "\(Int((first.level * 100).rounded())) % intervals of the pooled figures (bootstrap: \(first.resamples) draws of "
            + "\(first.groups) trace groups, each with its families and seeds):"
        return heading + "\n" + aligned(["strategy", "recall", "precision", "latency p95", "energy ratio"], body)
    }

    /// What each strategy's energy went on (``EnergyShares``), one row per list of runs: each item as a
    /// share of continuous GPS's energy over the same scenarios, adding up to the energy ratio.
    static func renderEnergy(_ runs: [[RunReport]]) -> String {
        let body = runs.filter { !$0.isEmpty }.map { reports in
            let shares = EnergyShares(reports: reports)
            return [reports[0].strategy]
                + [shares.gps, shares.wifi, shares.cell, shares.app, shares.motionSensing, shares.network, shares.wakes, shares.total]
                .map { fixed($0, 3) }
        }
        return "energy by what spent it (each a share of continuous GPS's energy over the same runs):\n"
            + aligned(["strategy", "gps", "wifi", "cell", "app running", "motion", "uploads", "wakes", "energy ratio"], body)
    }

    /// How late each strategy's uploads bring what it recorded to the server (``UploadLags``), in
    /// minutes: what coalescing uploads costs in freshness.
    static func renderUploadLags(_ rows: [StrategyAggregate]) -> String {
        func minutes(_ seconds: Double?) -> String { seconds.map { fixed($0 / 60, 1) } ?? "-" }
        let body = rows.map { row in
            [
                row.strategy, minutes(row.locationLag?.median), minutes(row.locationLag?.p95), minutes(row.eventLag?.median),
                minutes(row.eventLag?.p95),
            ]
        }
        return "how late the server learns of it (minutes from a record's last moment, or an event, to the upload carrying it):\n"
            + aligned(["strategy", "records med", "records p95", "events med", "events p95"], body)
    }

    /// How each preset's figures differ from those of the preset below it on the front (`presets`
    /// cheapest first), with intervals from draws that take the same traces for both
    /// (``ScoreIntervals/difference(_:minus:resamples:level:seed:)``): whether the front's order holds
    /// beyond which traces were recorded.
    static func renderFront(_ presets: [(name: String, runs: [RunReport])]) -> String {
        func range(_ interval: ClosedRange<Double>, _ text: (Double) -> String) -> String {
            func signed(_ value: Double) -> String { (value < 0 ? "−" : "+") + text(abs(value)) }
            return "\(signed(interval.lowerBound)) to \(signed(interval.upperBound))"
        }
        let body = zip(presets.dropFirst(), presets).compactMap { higher, lower -> [String]? in
            ScoreIntervals.difference(higher.runs, minus: lower.runs).map { gap in
                [
                    "\(higher.name) − \(lower.name)", range(gap.recall) { fixed($0, 3) }, range(gap.precision) { fixed($0, 3) },
                    gap.latencyP95.map { range($0) { "\(Int($0.rounded()))" } + " s" } ?? "-", range(gap.energyRatio) { fixed($0, 3) },
                ]
            }
        }
        guard !body.isEmpty else { return "no front intervals: the presets' runs come from one trace" }
        return "each preset less the one below it, 95 % intervals (the same traces drawn for both):\n"
            + aligned(["presets", "recall", "precision", "latency p95", "energy ratio"], body)
    }

    /// `header` and `body` as columns: the first left-aligned, the others right-aligned.
    private static func aligned(_ header: [String], _ body: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + body).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == 0
                    ? cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - cell.count) + cell
            }.joined(separator: "  ")
        }
        return ([line(header)] + body.map(line)).joined(separator: "\n")
    }

    /// A latency in whole seconds, or "-" when there is none (no report matched).
    static func seconds(_ value: Double?) -> String {
        value.map { "\(Int($0)) s" } ?? "-"
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        let decimals = text.split(separator: ".").last?.count ?? 0
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        return text
    }
}
