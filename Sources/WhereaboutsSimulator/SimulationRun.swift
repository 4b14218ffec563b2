import Foundation
import WhereaboutsCore

/// The result of one simulated run, before scoring.
public struct SimulationRun: Sendable {
    /// The region events the engine reported, in order.
    public var events: [RegionEvent]
    /// The records the engine stored, after merging, with their dwell seconds.
    public var fixes: [LocationRecord]
    /// The energy timeline, in time order.
    public var timeline: [TimelineRecord]
    /// How late the uploads carried what they carried.
    public var uploadLags: UploadLags

    /// Creates a run.
    public init(events: [RegionEvent], fixes: [LocationRecord], timeline: [TimelineRecord], uploadLags: UploadLags = UploadLags()) {
        self.events = events
        self.fixes = fixes
        self.timeline = timeline
        self.uploadLags = uploadLags
    }
}
