import ArgumentParser
import Foundation
import WhereaboutsServer

/// `whereabouts-server device set-user | set-key | clear-key | set-group | clear-group`: how a device
/// appears to OwnTracks (``OwnTracksProfile``).
extension DeviceCommand {
    /// Changes the device's OwnTracks profile and prints what it is now. A topic that is another
    /// device's is refused: its messages would go to whichever device sorts first.
    static func changeProfile(
        _ device: String, _ database: DatabaseOption, _ change: @escaping @Sendable (inout OwnTracksProfile) -> Void
    ) async throws {
        let saved = try await database.withStorage { storage -> OwnTracksProfile? in
            guard var profile = try await storage.ownTracksProfile(device: device) else { return nil }
            change(&profile)
            if let owner = try await storage.ownTracksProfile(topic: profile.topic), owner.device != device {
                throw ValidationError(
                    "\(profile.topic) is already device \(owner.device)'s OwnTracks topic; give device \(device) another user or --name")
            }
            return try await storage.saveOwnTracksProfile(profile) ? profile : nil
        }
        guard let saved else {
            throw ValidationError("device \(device) does not exist; add it with `whereabouts-server device add \(device)`")
        }
        print(
            "device \(device): OwnTracks \(saved.topic), friends group \(saved.group ?? "none"), payload encryption \(saved.key == nil ? "off" : "on")"
        )
    }

    struct SetUser: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-user", abstract: "Name the device for OwnTracks: owntracks/USER/NAME in topics and the /api/0 paths.",
            discussion:
                "Without them the user and the name are the device id. Set them to the app's username and device id (the topic it shows).")
        @OptionGroup var device: Name
        @Argument(help: "The OwnTracks user.") var user: String
        @Option(help: "The OwnTracks device name (default: the device id).") var name: String?
        @OptionGroup var database: DatabaseOption

        func validate() throws {
            for (value, what) in [(user, "user"), (name, "device name")] {
                if let value, let problem = OwnTracksProfile.problem(with: value, as: what) {
                    throw ValidationError("\(problem); give the \(what) the OwnTracks app shows, such as jane")
                }
            }
        }

        func run() async throws {
            let (user, name) = (user, name)
            try await changeProfile(device.name, database) {
                $0.user = user
                $0.name = name
            }
        }
    }

    struct SetKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-key",
            abstract: "Set the OwnTracks payload encryption key: the app's encryption key, so /pub opens its messages.",
            discussion:
                "It is kept in plain text in the database, as the Recorder keeps it: the server must open the payloads. Answers to the device are encrypted with it too."
        )
        @OptionGroup var device: Name
        @Argument(help: "The key as typed in the app (up to 32 bytes are used).") var key: String
        @OptionGroup var database: DatabaseOption

        func validate() throws {
            if key.isEmpty {
                throw ValidationError("the key is empty; to stop decrypting, run `whereabouts-server device clear-key \(device.name)`")
            }
        }

        func run() async throws {
            let key = key
            try await changeProfile(device.name, database) { $0.key = key }
        }
    }

    struct ClearKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear-key", abstract: "Forget the OwnTracks key: encrypted messages are refused and answers go unencrypted.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption

        func run() async throws { try await changeProfile(device.name, database) { $0.key = nil } }
    }

    struct SetGroup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-group",
            abstract: "Put the device in a friends group: each /pub answer carries the other members' last location and card.")
        @OptionGroup var device: Name
        @Argument(help: "The group's name.") var group: String
        @OptionGroup var database: DatabaseOption

        func validate() throws {
            if let problem = OwnTracksProfile.problem(with: group, as: "group") {
                throw ValidationError("\(problem); name the group with letters, digits, - or _, such as family")
            }
        }

        func run() async throws {
            let group = group
            try await changeProfile(device.name, database) { $0.group = group }
        }
    }

    struct ClearGroup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear-group", abstract: "Take the device out of its friends group: it sees no friends and none see it.")
        @OptionGroup var device: Name
        @OptionGroup var database: DatabaseOption

        func run() async throws { try await changeProfile(device.name, database) { $0.group = nil } }
    }
}
