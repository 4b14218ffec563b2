import SwiftUI
import WhereaboutsCore

/// One button that watches a region around the device, and the list of what happened at the regions.
struct RecorderView: View {
    @State private var recorder = Recorder.shared

    var body: some View {
        VStack(spacing: 16) {
            Button("Watch a region here") { Task { await recorder.watchHere() } }
                .buttonStyle(.borderedProminent)
            Text(recorder.status)
                .font(.footnote)
                .multilineTextAlignment(.center)
            List(recorder.events.reversed(), id: \.self) { event in
                VStack(alignment: .leading) {
                    Text(event.kind == .exit ? "Left \(event.regionID)" : "\(event.kind.rawValue.capitalized): \(event.regionID)")
                        .bold(event.kind == .exit)
                    Text(event.timestamp, format: .dateTime.day().month().hour().minute())
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
            }
        }
        .padding()
        .task { await recorder.follow() }
    }
}
