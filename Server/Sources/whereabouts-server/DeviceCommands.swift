import ArgumentParser
import Foundation
import WhereaboutsCore
import WhereaboutsServer

/// `whereabouts-server device add | list | remove | rotate-token | export | delete`, and the OwnTracks
/// profile's `set-user | set-key | clear-key | set-group | clear-group`.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "Manage devices and their data.",
        subcommands: [
            Add.self, List.self, Remove.self, RotateToken.self, Export.self, Delete.self, SetUser.self, SetKey.self, ClearKey.self,
            SetGroup.self,
            ClearGroup.self,
        ])

    /// The device id argument every subcommand takes, checked for shape.
    struct Name: ParsableArguments {
        @Argument(help: "The device id: 1 to 64 letters, digits, '.', '_' or '-', and not . or ..")
        var name: String

        func validate() throws {
            if let problem = DeviceID.problem(with: name) { throw ValidationError(DeviceID.message(for: name, problem: problem)) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a device and print its token once, as the last line. Only the token's SHA-256 is stored.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let (name, token) = (device.name, Tokens.generate())
            try await database.withStorage { storage in
                // A removed device's locations, events, regions and messages stay; a new device of that
                // name would be handed them.
                if try await storage.tokenHash(device: name) == nil, try await Self.keepsData(name, storage) {
                    throw ValidationError(
                        "device \(name) was removed, but its locations and events are kept, and a new device \(name) would be handed them; "
                            + "erase them with `whereabouts-server device delete \(name) --yes` (after `device export \(name)` if they are wanted), "
                            + "or add the new device under another name")
                }
                try await storage.addDevice(id: name, tokenHash: Tokens.hash(token), at: Date())
            }
            print("device \(name) added; its token is shown only now:")
            print(token)
        }

        /// Whether `storage` keeps anything of a device `name`: a location, a region event, a region or a message.
        private static func keepsData(_ name: String, _ storage: any TrackStorage) async throws -> Bool {
            if try await storage.last(device: name) != nil { return true }
            if try await !storage.regions(device: name).isEmpty { return true }
            if try await !storage.messages(device: name).isEmpty { return true }
            return try await !storage.events(device: name, from: .distantPast, to: .distantFuture).isEmpty
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices: id, locations, last location's time, when added.")
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let devices = try await database.withStorage(readOnly: true) { try await $0.devices() }
            guard !devices.isEmpty else { return print("no devices yet; add one with `whereabouts-server device add NAME`") }
            let width = max(6, devices.map(\.id.count).max() ?? 0)
            print("device".padding(toLength: width, withPad: " ", startingAt: 0) + "  locations  last seen                 added")
            for device in devices {
                let id = device.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let count = String(device.locations).leftPadded(9)
                let seen = (device.lastSeen.map(Timestamp.format) ?? "never").padding(toLength: 24, withPad: " ", startingAt: 0)
                print("\(id)  \(count)  \(seen)  \(Timestamp.format(device.createdAt))")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a device: its token stops working at once (its logins too) and its queued commands go.",
            discussion: "Its locations and events stay readable by the admin until `prune` or `device delete`.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let name = device.name
            guard let removed = try await database.withStorage({ try await $0.removeDevice(name) }) else {
                throw ValidationError("device \(name) does not exist; `whereabouts-server device list` shows the devices")
            }
            print(
                "device \(name) removed: its token is revoked; \(removed.logins) logins ended, \(removed.commands) queued commands dropped"
            )
        }
    }

    struct RotateToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-token",
            abstract: "Give a device a new token, printed once as the last line; the old one and its logins stop working at once.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let (name, token) = (device.name, Tokens.generate())
            guard try await database.withStorage({ try await $0.rotateToken(device: name, tokenHash: Tokens.hash(token)) }) else {
                throw ValidationError("device \(name) does not exist; add it with `whereabouts-server device add \(name)`")
            }
            print("device \(name) has a new token; the old one is revoked. The new token is shown only now:")
            print(token)
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write everything held of a device as one JSON object: the device, regions, events, messages and every location.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption
        @Option(help: "Write to this file instead of standard output.") var output: String?

        func run() async throws {
            let (name, output) = (device.name, output)
            if let output, FileManager.default.fileExists(atPath: output) {
                throw ValidationError("--output \(output) already exists and is left alone; name a file that does not exist yet")
            }
            let count = try await database.withStorage(readOnly: true) { storage in
                guard let output else {
                    return try await DeviceExport.write(device: name, from: storage) { FileHandle.standardOutput.write(Data($0.utf8)) }
                }
                guard FileManager.default.createFile(atPath: output, contents: nil), let file = FileHandle(forWritingAtPath: output) else {
                    throw ValidationError("--output \(output) cannot be created; check the folder exists and is writable")
                }
                do {
                    return try await DeviceExport.write(device: name, from: storage) { file.write(Data($0.utf8)) }
                } catch {
                    try? FileManager.default.removeItem(atPath: output)
                    throw error
                }
            }
            if let output { print("device \(name): \(count) locations written to \(output)") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Delete everything of a device, for a person who asks: the device, token, locations, events, regions, messages, commands, logins."
        )
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption
        @Flag(help: "Confirm: nothing deleted can be brought back.") var yes = false

        func run() async throws {
            let name = device.name
            guard yes else {
                throw ValidationError(
                    "device delete erases every trace of \(name) for good; run `device export \(name)` first if it is wanted, then add --yes"
                )
            }
            let deleted = try await database.withStorage { try await $0.deleteDevice(name) }
            print("device \(name) deleted: \(deleted)")
        }
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
