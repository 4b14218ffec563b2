/// What a deletion took away: `prune --before`, `device delete`.
public struct DeletedRows: Sendable, Equatable, CustomStringConvertible {
    /// Locations deleted, whether row by row or with their partition.
    public var locations = 0
    /// Region events deleted.
    public var events = 0
    /// OwnTracks messages (`card`, `lwt`, `status`) deleted.
    public var messages = 0
    /// Regions the device defined, deleted.
    public var regions = 0
    /// Queued commands deleted.
    public var commands = 0
    /// Login logins ended.
    public var logins = 0
    /// Whole PostgreSQL partitions of the locations table dropped (each a month).
    public var partitionsDropped = 0

    /// Creates counts.
    public init(
        locations: Int = 0, events: Int = 0, messages: Int = 0, regions: Int = 0, commands: Int = 0, logins: Int = 0,
        partitionsDropped: Int = 0
    ) {
        self.locations = locations
        self.events = events
        self.messages = messages
        self.regions = regions
        self.commands = commands
        self.logins = logins
        self.partitionsDropped = partitionsDropped
    }

    public var description: String {
        var parts = ["\(locations) locations", "\(events) events", "\(messages) messages"]
        if regions > 0 { parts.append("\(regions) regions") }
        if commands > 0 { parts.append("\(commands) commands") }
        if logins > 0 { parts.append("\(logins) logins") }
        if partitionsDropped > 0 { parts.append("\(partitionsDropped) whole monthly partitions dropped") }
        return parts.joined(separator: ", ")
    }
}
