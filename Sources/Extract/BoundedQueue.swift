import Foundation

/// A blocking first-in first-out queue of limited size between one producer thread and one
/// consumer thread: the producer waits while it is full, so memory stays bounded however
/// many features stream through.
///
/// A ring of `capacity` slots: a taken element's slot is emptied at once, so the queue never
/// holds more than `capacity` elements alive (keeping taken ones until a compaction would
/// hold dozens of batches of rows).
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private let capacity: Int
    private var closed = false
    private let condition = NSCondition()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        slots = Array(repeating: nil, count: self.capacity)
    }

    /// Adds an element, waiting while the queue is full. False when the consumer has gone.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count >= capacity && !closed { condition.wait() }
        if closed { return false }
        slots[(head + count) % capacity] = element
        count += 1
        condition.broadcast()
        return true
    }

    /// The next element, waiting while the queue is empty; nil once closed and drained.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0, let element = slots[head] else { return nil }
        slots[head] = nil
        head = (head + 1) % capacity
        count -= 1
        condition.broadcast()
        return element
    }

    /// Ends the stream: the consumer drains what is left; a waiting producer gives up.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
