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
