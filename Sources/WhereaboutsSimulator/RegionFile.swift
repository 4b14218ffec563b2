import Foundation
import WhereaboutsCore

/// Reads region files from disk.
public enum RegionFile {
    /// The regions of a GeoJSON file, streamed in chunks.
    /// - Throws: ``FormatError`` naming the file and feature.
    public static func read(at url: URL) throws -> [Region] {
        let handle = try GPXFile.open(url)
        defer { try? handle.close() }
        var reader = GeoJSONRegionReader(sourceName: url.lastPathComponent)
        var regions: [Region] = []
        while let chunk = try handle.read(upToCount: GPXFile.chunkSize), !chunk.isEmpty {
            regions += try reader.feed(chunk)
        }
        return regions + (try reader.finish())
    }
}
