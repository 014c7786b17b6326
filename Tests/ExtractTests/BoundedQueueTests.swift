import Foundation
import Testing
@testable import Extract

@Suite struct BoundedQueueTests {
    final class Payload: Sendable {
        let n: Int
        init(_ n: Int) { self.n = n }
    }

    /// An element the consumer has taken and dropped is freed: the queue keeps none alive
    /// beyond the ones waiting in it, however many have gone through.
    @Test func takenElementsAreNotKeptAlive() {
        let queue = BoundedQueue<Payload>(capacity: 4)
        var watched: [Int: () -> Payload?] = [:]
        for n in 0..<200 {
            let payload = Payload(n)
            weak let weakPayload = payload
            watched[n] = { weakPayload }
            queue.put(payload)
            #expect(queue.take()?.n == n)
        }
        #expect(watched.values.allSatisfy { $0() == nil })
    }

    /// First in, first out across the ring's wrap, with a producer thread that waits while
    /// the queue is full; close lets the consumer drain what is left.
    @Test func keepsOrderAcrossThreads() {
        let queue = BoundedQueue<Int>(capacity: 3)
        let producer = Thread {
            for n in 0..<1000 { queue.put(n) }
            queue.close()
        }
        producer.start()
        var received: [Int] = []
        while let n = queue.take() { received.append(n) }
        #expect(received == Array(0..<1000))
    }
}
