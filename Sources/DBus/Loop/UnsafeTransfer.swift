/// Moves a non-Sendable value (a libdbus pointer) to another thread.
///
/// Safe only when ownership moves with it: the sending side never touches the value again.
/// Every use documents that hand-over at the call site.
struct UnsafeTransfer<Value>: @unchecked Sendable {  // invariant: ownership moves; the sender forgets the value
    let value: Value
    init(_ value: Value) { self.value = value }
}
