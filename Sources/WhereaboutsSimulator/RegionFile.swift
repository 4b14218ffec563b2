import Foundation
import WhereaboutsCore

/// Reads region files from disk.
public enum RegionFile {
    /// The regions of a GeoJSON file, streamed in chunks.
    /// - Throws: ``FormatError`` naming the file and feature.
    public static func read(at url: URL) throws -> [Region] {
        var reader = GeoJSONRegionReader(sourceName: url.lastPathComponent)
        var regions: [Region] = []
        try TextFileChunks.read(url, expecting: "a GeoJSON file of regions") { regions += try reader.feed($0) }
        return regions + (try reader.finish())
    }
}
