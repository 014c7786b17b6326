import Foundation

/// A blocking first-in first-out queue of limited size between one producer thread and one
/// consumer thread: the producer waits while it is full, so memory stays bounded however
/// many features stream through.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = capacity }

    /// Adds an element, waiting while the queue is full. False when the consumer has gone.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count - head >= capacity && !closed { condition.wait() }
        if closed { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next element, waiting while the queue is empty; nil once closed and drained.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while items.count == head && !closed { condition.wait() }
        guard items.count > head else { return nil }
        let element = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
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
