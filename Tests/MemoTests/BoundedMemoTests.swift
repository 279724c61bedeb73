import Memo
import Synchronization
import Testing

/// A memo answers what it was told, never holds more than its bound, and lets go of what it is
/// told to forget.
@Suite struct BoundedMemoTests {
    @Test func remembersUpToItsCountThenLetsOthersGo() {
        let memo = BoundedMemo<Int, String>(capacity: 3)
        for key in 0..<10 { memo.remember("\(key)", for: key) }
        #expect(memo.count == 3)
        #expect(memo[9] == "9", "the newest value is always kept")
        let kept = (0..<10).filter { memo[$0] != nil }
        #expect(kept.count == 3)
        #expect(kept.allSatisfy { memo[$0] == "\($0)" })
    }

    @Test func aNewValueForAKeyReplacesTheOldAndItsCost() {
        let memo = BoundedMemo<String, [UInt8]>(capacity: 10) { $0.count }
        memo.remember([1, 2, 3, 4, 5, 6], for: "a")
        memo.remember([1, 2], for: "a")
        memo.remember([1, 2, 3, 4, 5, 6, 7, 8], for: "b")
        #expect(memo["a"] == [1, 2], "2 + 8 bytes fit in 10 once the 6 are gone")
        #expect(memo["b"]?.count == 8)
    }

    @Test func keepsItsCostWithinTheBound() {
        let memo = BoundedMemo<Int, [UInt8]>(capacity: 100) { $0.count }
        for key in 0..<50 { memo.remember([UInt8](repeating: 0, count: key % 30 + 1), for: key) }
        let held = (0..<50).compactMap { memo[$0]?.count }.reduce(0, +)
        #expect(held <= 100)
        #expect(memo[49]?.count == 20)
    }

    @Test func aValueDearerThanTheWholeBoundIsNotKeptAndDropsNothing() {
        let memo = BoundedMemo<Int, [UInt8]>(capacity: 4) { $0.count }
        memo.remember([1], for: 1)
        memo.remember([1, 2, 3, 4, 5], for: 2)
        #expect(memo[2] == nil)
        #expect(memo[1] == [1])
    }

    @Test func forgetsAKeyOrEveryKeyThatMatches() {
        let memo = BoundedMemo<String, Int>(capacity: 10)
        for key in ["a1", "a2", "b1", "b2"] { memo.remember(key.count, for: key) }
        memo.forget("b1")
        #expect(memo["b1"] == nil)
        memo.forget { $0.hasPrefix("a") }
        #expect(memo.count == 1)
        #expect(memo["b2"] == 2)
        for key in 0..<10 { memo.remember(key, for: "c\(key)") }
        #expect(memo.count == 10, "forgotten values no longer count against the bound")
    }
}

/// Kept bytes make what is asked of them once, and keep it.
@Suite struct KeptBytesTests {
    @Test func makesItsAnswerOnceAndKeepsIt() {
        let kept = KeptBytes([1, 2, 3])
        let made = Mutex(0)
        for _ in 0..<5 {
            let answer = kept.made { bytes -> String in
                made.withLock { $0 += 1 }
                return bytes.bytes.map(String.init).joined()
            }
            #expect(answer == "123")
        }
        #expect(made.withLock { $0 } == 1)
        #expect(kept.made { $0.count } == 3, "another kind of answer is made anew")
    }

    /// What is made of the bytes may hold them, and both go once the kept bytes go.
    @Test func whatIsMadeOfTheBytesDoesNotKeepThemAlive() {
        weak var stable: StableBytes?
        do {
            let kept = KeptBytes([7, 8, 9])
            stable = kept.stable
            _ = kept.made { [$0] }
            #expect(stable != nil)
        }
        #expect(stable == nil)
    }

    /// A C library's reference keeps the bytes, at their one address, until it is given back.
    @Test func aRetainedAddressKeepsTheBytesUntilReleased() throws {
        weak var seen: StableBytes?
        var address: (bytes: UnsafeRawBufferPointer, retained: UnsafeMutableRawPointer)?
        do {
            let stable = try #require(
                StableBytes(count: 4) { buffer in
                    buffer.copyBytes(from: [1, 2, 3, 4])
                    return true
                })
            seen = stable
            address = stable.retainedAddress()
            #expect(stable.withUnsafeBytes { $0.baseAddress } == address?.bytes.baseAddress)
        }
        #expect(seen != nil)
        #expect(address.map { Array($0.bytes) } == [1, 2, 3, 4])
        StableBytes.release(retained: try #require(address).retained)
        #expect(seen == nil)
        #expect(StableBytes(count: 8) { _ in false } == nil, "a fill that fails makes nothing")
    }

    @Test func equalBytesAreEqual() {
        #expect(KeptBytes([1, 2]) == KeptBytes([1, 2]))
        #expect(KeptBytes([1, 2]) != KeptBytes([2, 1]))
    }
}

/// The memo lets go of what it was told longest ago, and stays a dictionary's speed however
/// many values have come and gone.
@Suite struct BoundedMemoOrderTests {
    @Test func theOldestGoFirst() {
        let memo = BoundedMemo<Int, Int>(capacity: 3)
        for key in 0..<3 { memo.remember(key, for: key) }
        memo.remember(10, for: 0)  // stored again: now the newest
        memo.remember(3, for: 3)
        #expect(memo[1] == nil, "the oldest went")
        #expect(memo[0] == 10 && memo[2] == 2 && memo[3] == 3)
        memo.forget(2)
        memo.remember(4, for: 4)
        #expect(memo.count == 3 && memo[0] == 10 && memo[3] == 3 && memo[4] == 4, "a forgotten key frees its room")
    }

    /// Half a million ids through a memo of 100,000, as a long scroll through a library of a
    /// million remembers them; then 60 more must cost what the first 60 did. Counted in
    /// comparisons of keys, not in time: a key type that counts its own `==`.
    @Test func manyValuesComeAndGoWithoutSlowingIt() {
        let compared = Mutex(0)
        struct Counted: Hashable, Sendable {
            var id: String
            let comparisons: @Sendable () -> Void
            static func == (left: Counted, right: Counted) -> Bool {
                left.comparisons()
                return left.id == right.id
            }
            func hash(into hasher: inout Hasher) { hasher.combine(id) }
        }
        let memo = BoundedMemo<Counted, Int>(capacity: 100_000)
        let key = { (number: Int) in
            Counted(id: String(repeating: "0", count: 20) + String(number, radix: 16)) { compared.withLock { $0 += 1 } }
        }
        for number in 0..<500_000 { memo.remember(number, for: key(number)) }
        compared.withLock { $0 = 0 }
        for number in 1_000_000..<1_000_060 {
            memo.remember(number, for: key(number))
            _ = memo[key(number + 1_000)]
        }
        #expect(compared.withLock { $0 } < 60 * 20, "a few comparisons a lookup, not hundreds")
        #expect(memo.count == 100_000)
    }
}
