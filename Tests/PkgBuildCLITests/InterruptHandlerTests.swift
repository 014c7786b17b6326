import Foundation
import Testing
import PkgBuildCLI

@Suite struct InterruptHandlerTests {
    @Test func sigintSetsTheCancellationFlag() async throws {
        let handler = InterruptHandler()
        #expect(!handler.cancellation.isCancelled)
        kill(getpid(), SIGINT)
        // The dispatch source delivers the signal on its own queue; wait for it, up to 5 s.
        for _ in 0..<500 where !handler.cancellation.isCancelled {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(handler.cancellation.isCancelled)
        withExtendedLifetime(handler) {}
    }
}
