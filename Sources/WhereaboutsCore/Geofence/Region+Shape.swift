import Foundation

extension Region {
    /// The size the geofence rule judges the region by (``TransitionRule``'s hysteresis band and
    /// accuracy margin): a circle's radius, and for polygons the depth of the deepest point inside
    /// them (``PolygonSet/inradius``), not the radius of the enclosing circle handed to the OS. No
    /// fix can lie deeper inside a polygon than that, so a band sized by the enclosing circle would
    /// leave a strip narrower than 50 m (a street, a platform, a pier) impossible to enter.
    public var size: Double {
        switch shape {
        case .circle: radius
        case .polygons(let set): set.inradius
        }
    }

    /// Whether the region is a circle (not polygons, which the OS and the grid know by their
    /// enclosing circle).
    var isCircle: Bool {
        if case .circle = shape { true } else { false }
    }
}
