import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsStore

/// `whereabouts store`: look into a store file and send what it holds.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Inspect a Whereabouts store file, upload its pending records or requeue rejected ones.",
        subcommands: [Inspect.self, Flush.self, Requeue.self])

    /// `whereabouts store inspect FILE`.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show records by state, rejected records with their reasons, and every drop.",
            discussion: """
                Changes no byte of the file, its -wal or its -shm: a store with a write-ahead log (an app has it open, or a writer \
                was killed) is read from a private copy of the file and its log, so every commit is seen; a store closed \
                cleanly is read in place, read-only.
                """)

        @Argument(help: "The store file.")
        var file: String

        @Flag(help: "Print one JSON object instead of text.")
        var json = false

        func run() throws {
            let store = try StoreFile.open(file, mode: .snapshot)
            let summary = try store.summary()
            print(
                json ? StoreReport.json(summary, path: file) : StoreReport.text(summary, path: file, integrity: try store.integrityCheck()))
        }
    }

    /// `whereabouts store flush FILE --upload URL`.
    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Upload every pending record of a store, then exit.")

        @Argument(help: "The store file.")
        var file: String

        @OptionGroup var upload: UploadOptions

        func run() async throws {
            let noUpload = InputError("store flush needs --upload URL: give the server's base URL")
            guard case .server = try upload.target() else { throw noUpload }
            let store = try StoreFile.open(file, mode: .existing)
            guard let uploader = try upload.uploader(for: store) else { throw noUpload }
            let report = await uploader.drain(
                until: Date().addingTimeInterval(upload.drainTimeout), trigger: .manual, acknowledging: try store.commandAcknowledgements())
            print(
                "delivered \(report.delivered), rejected \(report.rejected), requests \(report.requests), pending \(try store.pendingCount())"
            )
            if let stop = report.stoppedBy { throw InputError("\(upload.explain(stop)); the records stay pending in \(file)") }
        }
    }
}

extension StoreCommand {
    /// `whereabouts store requeue FILE`.
    struct Requeue: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put every rejected record and region event back to pending, for the next flush to send again.",
            discussion: "For when the cause of the rejections (a wrong upload URL, a server bug) has been fixed.")

        @Argument(help: "The store file.")
        var file: String

        func run() throws {
            let store = try StoreFile.open(file, mode: .existing)
            do {
                let records = try store.requeueRejected()
                let events = try store.requeueRejectedEvents()
                print("requeued \(records) records and \(events) region events; pending \(try store.pendingCount())")
            } catch {
                throw InputError(reading: error)
            }
        }
    }
}

/// Opening a store file named on the command line.
enum StoreFile {
    /// Opens `path` as `mode` allows (``StoreOpenMode/readWrite`` creates a missing store,
    /// ``StoreOpenMode/existing`` refuses it; every writing mode refuses a file that is not a store),
    /// and says on stderr what opening it found: damage, or a salvage and where the damaged file is kept.
    static func open(_ path: String, mode: StoreOpenMode = .readWrite) throws -> SQLiteLocationStore {
        do {
            let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: mode))
            if let damage = store.openReport.damage {
                say(
                    "\(path) is damaged (\(damage)); what touches a damaged page cannot be read. A writing command salvages the readable rows into a new store."
                )
            }
            if let salvage = store.openReport.salvage {
                say("\(path) was damaged: \(salvage.summary)")
            }
            return store
        } catch {
            throw InputError(reading: error)
        }
    }

    private static func say(_ line: String) {
        StandardError.write("whereabouts: \(line)\n")
    }
}

/// Renders a ``StoreSummary``.
enum StoreReport {
    static func text(_ summary: StoreSummary, path: String, integrity: String) -> String {
        var lines = [
            "\(path): \(summary.records) records, \(summary.bytes) bytes (\(summary.records > 0 ? summary.bytes / summary.records : 0) per record), integrity \(integrity)"
        ]
        lines.append(
            DeliveryState.allCases.map { "\($0) \(summary.counts[$0] ?? 0)" }.joined(separator: ", ")
                + " (\(summary.leased) leased to an upload); \(summary.events) region events (\(summary.eventsPending) pending), "
                + "\(summary.regions) regions, \(summary.commands) commands")
        if !summary.rejected.isEmpty {
            lines.append("rejected:")
            for record in summary.rejected {
                lines.append(
                    "  \(record.id.uuidString.lowercased()) \(Timestamp.format(record.timestamp)) \(record.rejection.status) \(record.rejection.reason)"
                )
            }
        }
        let dropped = summary.drops.reduce(0) { $0 + $1.count }
        lines.append("drops: \(dropped)")
        for drop in summary.drops {
            lines.append("  \(Timestamp.format(drop.at)) \(drop.count) \(drop.state) records, \(drop.reason)")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ summary: StoreSummary, path: String) -> String {
        var members: [(String, JSONScalar)] = [
            ("file", .string(path)), ("records", .integer(summary.records)), ("bytes", .integer(summary.bytes)),
        ]
        for state in DeliveryState.allCases { members.append((state.description, .integer(summary.counts[state] ?? 0))) }
        members += [
            ("leased", .integer(summary.leased)), ("events", .integer(summary.events)), ("eventsPending", .integer(summary.eventsPending)),
            ("dropped", .integer(summary.drops.reduce(0) { $0 + $1.count })),
            ("droppedUndelivered", .integer(summary.drops.filter { $0.state != .delivered }.reduce(0) { $0 + $1.count })),
        ]
        return JSONLine(members).text
    }
}
