import Foundation
import WhereaboutsCore
import WhereaboutsServer

/// Resident memory while a long history streams out: loads `locations` into a fresh device, then
/// streams its history through curl to /dev/null while sampling this process's resident memory.
struct ExportMemory: Sendable {
    let rows: Int
    let bytes: Int
    let before: Int
    let peak: Int

    /// Measures an export of `locations` rows from the server on `port`.
    static func measure(locations: Int, port: Int, storage: any TrackStorage) async throws -> ExportMemory {
        let device = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        let token = Tokens.generate()
        try await storage.addDevice(id: device, tokenHash: Tokens.hash(token), at: Date())
        let start = Date().addingTimeInterval(-Double(locations) - 3600)
        for first in stride(from: 0, to: locations, by: 5000) {
            let records = (first..<min(locations, first + 5000)).map { i in
                LocationRecord(
                    fix: try! Fix(
                        coordinate: Coordinate(latitude: 35 + Double(i % 9000) * 1e-4, longitude: 139), horizontalAccuracy: 7,
                        timestamp: start.addingTimeInterval(Double(i))),
                    trigger: .policy)
            }
            _ = try await storage.ingest(records, device: device, at: Date())
        }
        let before = residentBytes()
        let sampler = Task {
            var peak = before
            while !Task.isCancelled {
                peak = max(peak, residentBytes())
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
            return peak
        }
        let bytes: Int = try await withCheckedThrowingContinuation { done in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                process.arguments = [
                    "-sf", "-o", "/dev/null", "-w", "%{size_download}", "-H", "Authorization: Bearer \(token)",
                    "http://127.0.0.1:\(port)/v1/devices/\(device)/locations",
                ]
                let pipe = Pipe()
                process.standardOutput = pipe
                do {
                    try process.run()
                    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: Int(text) ?? 0)
                } catch {
                    done.resume(throwing: error)
                }
            }.start()
        }
        sampler.cancel()
        return ExportMemory(rows: locations, bytes: bytes, before: before, peak: await sampler.value)
    }
}

/// This process's resident memory in bytes (Linux `/proc/self/statm`).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
}
