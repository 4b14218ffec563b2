import Foundation

/// An SVG picture of energy ratio (log scale) against recall: every strategy, every point of a
/// parameter sweep, and the Pareto front through them (no other point has both more recall and
/// less energy), so a user picks a strategy by looking.
public enum EnergyRecallPlot {
    /// A point on the picture.
    public struct Point: Sendable {
        /// Its label (a strategy's name; sweep points go unlabelled).
        public let label: String?
        /// Energy over continuous GPS.
        public let energyRatio: Double
        /// Recall.
        public let recall: Double
        /// Whether it is a strategy (a labelled dot) or a sweep point (a small grey one).
        public let isStrategy: Bool

        /// Creates a point.
        public init(label: String?, energyRatio: Double, recall: Double, isStrategy: Bool) {
            self.label = label
            self.energyRatio = energyRatio
            self.recall = recall
            self.isStrategy = isStrategy
        }
    }

    /// The points no other point beats on both axes, by rising energy.
    public static func front(_ points: [Point]) -> [Point] {
        var front: [Point] = []
        for point in points.sorted(by: { ($0.energyRatio, -$0.recall) < ($1.energyRatio, -$1.recall) })
        where point.recall > (front.last?.recall ?? -.infinity) {
            front.append(point)
        }
        return front
    }

    /// The SVG document, titled `title`.
    public static func svg(_ points: [Point], title: String) -> String {
        let (width, height, left, right, top, bottom) = (760.0, 500.0, 70.0, 30.0, 40.0, 60.0)
        let energies = points.map { max($0.energyRatio, 1e-3) }
        let lowE = log10(max(1e-3, (energies.min() ?? 0.01) / 1.3))
        let highE = log10((energies.max() ?? 1) * 1.3)
        let lowR = max(0, ((points.map(\.recall).min() ?? 0.5) - 0.02))
        let highR = 1.0
        func x(_ e: Double) -> Double { left + (log10(max(e, 1e-3)) - lowE) / max(highE - lowE, 1e-9) * (width - left - right) }
        func y(_ r: Double) -> Double { top + (highR - r) / max(highR - lowR, 1e-9) * (height - top - bottom) }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(f(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">\(escape(title))</text>",
        ]
        var tick = pow(10, floor(lowE))
        while log10(tick) <= highE {
            for m in [1.0, 2, 5] where log10(tick * m) >= lowE && log10(tick * m) <= highE {
                let px = x(tick * m)
                out.append("<line x1=\"\(f(px))\" y1=\"\(f(top))\" x2=\"\(f(px))\" y2=\"\(f(height - bottom))\" stroke=\"#eee\"/>")
                out.append("<text x=\"\(f(px))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">\(tick * m)</text>")
            }
            tick *= 10
        }
        var r = (lowR * 50).rounded(.up) / 50
        while r <= highR + 1e-9 {
            out.append("<line x1=\"\(f(left))\" y1=\"\(f(y(r)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(r)))\" stroke=\"#eee\"/>")
            out.append("<text x=\"\(f(left - 6))\" y=\"\(f(y(r) + 4))\" text-anchor=\"end\">\(String(format: "%.2f", r))</text>")
            r += 0.02
        }
        out.append(
            "<text x=\"\(f((left + width - right) / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\">energy ratio (continuous GPS = 1, log scale)</text>"
        )
        out.append("<text transform=\"translate(18 \(f((top + height - bottom) / 2))) rotate(-90)\" text-anchor=\"middle\">recall</text>")
        let line = front(points).map { "\(f(x($0.energyRatio))),\(f(y($0.recall)))" }.joined(separator: " ")
        out.append("<polyline points=\"\(line)\" fill=\"none\" stroke=\"#d33\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>")
        for point in points where !point.isStrategy {
            out.append("<circle cx=\"\(f(x(point.energyRatio)))\" cy=\"\(f(y(point.recall)))\" r=\"2.5\" fill=\"#999\"/>")
        }
        let dots = labelledDots(points.filter(\.isStrategy).map { (x($0.energyRatio), y($0.recall), $0.label) }, width: width)
        for dot in dots { out.append("<circle cx=\"\(f(dot.x))\" cy=\"\(f(dot.y))\" r=\"5\" fill=\"#2563eb\"/>") }
        for dot in dots where !dot.label.isEmpty {
            let anchor = dot.endsAtX ? " text-anchor=\"end\"" : ""
            out.append("<text x=\"\(f(dot.labelX))\" y=\"\(f(dot.labelY))\"\(anchor)>\(escape(dot.label))</text>")
        }
        out.append(
            "<text x=\"\(f(width - right))\" y=\"\(f(height - bottom - 8))\" text-anchor=\"end\" fill=\"#d33\">- - Pareto front</text>")
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// One strategy's dot in pixels and its label's place.
    struct LabelledDot: Equatable {
        var x: Double, y: Double
        /// The names of the strategies on this dot, joined.
        var label: String
        /// Where the label's baseline starts (or ends, when ``endsAtX``).
        var labelX: Double, labelY: Double
        /// Whether the label ends left of the dot (near the right edge) instead of starting right of it.
        var endsAtX: Bool
    }

    /// The strategies' dots in pixels with their labels placed on a picture `width` pixels wide:
    /// strategies on the same pixel share one dot and one label ("continuous, move"), a label that
    /// would run past the right edge ends left of its dot, and a label that would overlap one placed
    /// before moves down a line until it does not.
    static func labelledDots(_ dots: [(x: Double, y: Double, label: String?)], width: Double) -> [LabelledDot] {
        var merged: [(x: Double, y: Double, labels: [String])] = []
        for dot in dots {
            if let index = merged.firstIndex(where: { abs($0.x - dot.x) < 1 && abs($0.y - dot.y) < 1 }) {
                merged[index].labels += dot.label.map { [$0] } ?? []
            } else {
                merged.append((dot.x, dot.y, dot.label.map { [$0] } ?? []))
            }
        }
        let (lineHeight, characterWidth) = (14.0, 7.0)
        var placed: [(from: Double, to: Double, y: Double)] = []
        return merged.map { dot in
            let label = dot.labels.joined(separator: ", ")
            let extent = characterWidth * Double(label.count)
            let endsAtX = dot.x + 8 + extent > width
            let labelX = endsAtX ? dot.x - 8 : dot.x + 8
            let (from, to) = endsAtX ? (labelX - extent, labelX) : (labelX, labelX + extent)
            var labelY = dot.y - 6
            while placed.contains(where: { $0.from < to && from < $0.to && abs($0.y - labelY) < lineHeight }) { labelY += lineHeight }
            if !label.isEmpty { placed.append((from, to, labelY)) }
            return LabelledDot(x: dot.x, y: dot.y, label: label, labelX: labelX, labelY: labelY, endsAtX: endsAtX)
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }
}
