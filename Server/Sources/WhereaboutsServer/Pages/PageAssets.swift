import Foundation
import Logging
import NIOCore

/// The files under `/assets/`: Leaflet's script, style sheet and images, read once from
/// ``ServerSettings/leafletDirectory`` (Debian's `libjs-leaflet`), and the day page's script.
struct PageAssets: Sendable {
    /// A served file.
    struct File: Sendable {
        let contentType: String
        let body: ByteBuffer
    }

    /// The files by their path under `/assets/`.
    let files: [String: File]

    /// Leaflet's files, by their path in its folder.
    static let leafletFiles = [
        "leaflet.js", "leaflet.css", "images/layers.png", "images/layers-2x.png", "images/marker-icon.png", "images/marker-icon-2x.png",
        "images/marker-shadow.png",
    ]

    /// Reads Leaflet from `leafletDirectory`; when it is missing, logs how to install it and serves
    /// the day page's script alone (the pages then show the SVG drawing).
    init(leafletDirectory: String, logger: Logger) {
        var files = ["day-map.js": File(contentType: "text/javascript; charset=utf-8", body: ByteBuffer(string: DayMap.script))]
        var missing: [String] = []
        for name in Self.leafletFiles {
            let path = URL(fileURLWithPath: leafletDirectory).appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else {
                missing.append(name)
                continue
            }
            let type =
                name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : name.hasSuffix(".css") ? "text/css; charset=utf-8" : "image/png"
            files["leaflet/" + name] = File(contentType: type, body: ByteBuffer(bytes: data))
        }
        if !missing.isEmpty {
            logger.warning(
                "Leaflet is not in \(leafletDirectory) (missing \(missing.joined(separator: ", "))): day pages show the SVG drawing only; install Debian's libjs-leaflet or pass --leaflet-dir"
            )
        }
        self.files = files
    }
}
