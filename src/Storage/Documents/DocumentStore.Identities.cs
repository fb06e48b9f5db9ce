using System.Buffers.Binary;
using Folio.Storage.Merging;
using Folio.Storage.Transactions;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Takes the next value of the identity <paramref name="name"/> (<see cref="DocumentIdentities.Prefix"/>), creating it at 1;
    /// the value is durable and never handed out again, also not to a document stored with the <c>prefix|</c> id.
    /// Concurrent callers each get their own value: the read and the write are one merged transaction.
    /// </summary>
    /// <exception cref="DocumentValidationException">The name is not a usable identity name.</exception>
    public async Task<long> NextIdentityAsync(string name)
    {
        var operation = new IdentityOperation(DocumentIdentities.Key(DocumentIdentities.Prefix(name)), seed: null, force: false);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Result;
    }

    /// <summary>
    /// Sets the identity <paramref name="name"/> to <paramref name="value"/> when that is above its current value, or
    /// whatever the current value when <paramref name="force"/> is set (which may move it back: ids it then makes can
    /// be taken already, and are skipped). Returns the identity's value afterwards; durable when it completes.
    /// </summary>
    /// <exception cref="DocumentValidationException">The name is not a usable identity name, or the value is negative.</exception>
    public async Task<long> SeedIdentityAsync(string name, long value, bool force)
    {
        if (value < 0)
            throw new DocumentValidationException("An identity's value must not be negative.");
        var operation = new IdentityOperation(DocumentIdentities.Key(DocumentIdentities.Prefix(name)), value, force);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Result;
    }

    /// <summary>Reads, then moves, one identity inside a merged write transaction (which may run more than once: each run starts from the transaction).</summary>
    private sealed class IdentityOperation(byte[] key, long? seed, bool force) : MergedOperation
    {
        public long Result { get; private set; }

        public override void Execute(WriteTransaction transaction)
        {
            var meta = transaction.OpenTree(MetaTree)!;
            var current = meta.TryGet(key, out var stored) ? BinaryPrimitives.ReadInt64LittleEndian(stored) : 0;
            var next = seed is { } value ? (force || value > current ? value : current) : current + 1;
            if (next != current || stored.IsEmpty)
                BinaryPrimitives.WriteInt64LittleEndian(meta.Reserve(key, 8), next);
            Result = next;
        }
    }
}
