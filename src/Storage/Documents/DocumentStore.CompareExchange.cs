using Folio.Storage.Merging;
using Folio.Storage.Transactions;

namespace Folio.Storage.Documents;

public sealed partial class DocumentStore
{
    /// <summary>
    /// Stores <paramref name="json"/> under <paramref name="key"/> when the entry's index is <paramref name="expectedIndex"/>
    /// (0: only when there is no entry). A failed check writes nothing and answers the current entry. Durable when it completes.
    /// </summary>
    /// <exception cref="DocumentValidationException">The key is not usable.</exception>
    public async Task<CompareExchangeResult> PutCompareExchangeAsync(string key, long expectedIndex, byte[] json)
    {
        CompareExchangeEntries.Validate(key);
        var operation = new CompareExchangeOperation(new CompareExchangeCommand(CompareExchangeCommandType.Put, key, expectedIndex, json));
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Result!;
    }

    /// <summary>Removes the entry under <paramref name="key"/> when its index is <paramref name="expectedIndex"/>. Durable when it completes.</summary>
    /// <exception cref="DocumentValidationException">The key is not usable.</exception>
    public async Task<CompareExchangeResult> DeleteCompareExchangeAsync(string key, long expectedIndex)
    {
        CompareExchangeEntries.Validate(key);
        var operation = new CompareExchangeOperation(new CompareExchangeCommand(CompareExchangeCommandType.Delete, key, expectedIndex, null));
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Result!;
    }

    /// <summary>
    /// Runs a cluster-wide batch in one transaction: the document writes, then the compare-exchange writes, all taking
    /// one new index (the batch's transaction index). With <paramref name="atomicGuards"/>, each document written keeps
    /// an atomic guard (<c>rvn-atomic/{id}</c>) at that index, and a document command without an expected change vector
    /// fails when its guard exists (another cluster-wide batch wrote the document since). Any failed check fails the
    /// whole batch with a <see cref="ClusterTransactionConflictException"/>, and nothing is written.
    /// </summary>
    public async Task<ClusterBatchResult> ClusterBatchAsync(IReadOnlyList<DocumentCommand> documents, IReadOnlyList<CompareExchangeCommand> exchanges, bool atomicGuards)
    {
        var operation = new ClusterBatchOperation(this, documents, exchanges, atomicGuards);
        await Environment.Merger.EnqueueAsync(operation).ConfigureAwait(false);
        return operation.Result!;
    }

    private sealed class CompareExchangeOperation(CompareExchangeCommand command) : MergedOperation
    {
        public CompareExchangeResult? Result { get; private set; }

        public override long EstimatedBytes => (command.Json?.Length ?? 0) + 256;

        public override void Execute(WriteTransaction transaction)
        {
            var writer = new CompareExchangeWriter(transaction);
            Result = command.Type == CompareExchangeCommandType.Put
                ? writer.Put(command.Key, command.ExpectedIndex, command.Json ?? throw new DocumentValidationException("A compare-exchange put needs a value."))
                : writer.Delete(command.Key, command.ExpectedIndex);
        }
    }

    /// <summary>A cluster-wide batch as one merged operation; each run recomputes its results from the transaction alone.</summary>
    private sealed class ClusterBatchOperation(DocumentStore store, IReadOnlyList<DocumentCommand> documents, IReadOnlyList<CompareExchangeCommand> exchanges, bool atomicGuards) : MergedOperation
    {
        public ClusterBatchResult? Result { get; private set; }

        public override long EstimatedBytes
        {
            get
            {
                long bytes = 0;
                foreach (var command in documents)
                    bytes += (command.Document?.Length ?? 0) + 256;
                foreach (var command in exchanges)
                    bytes += (command.Json?.Length ?? 0) + 256;
                return bytes;
            }
        }

        public override void Execute(WriteTransaction transaction)
        {
            var writer = new DocumentWriter(store, transaction, DocumentWriter.Puts(documents));
            var exchange = new CompareExchangeWriter(transaction);
            var index = exchange.TransactionIndex;
            var written = new WriteResult?[documents.Count];
            for (var i = 0; i < documents.Count; i++)
                written[i] = Write(writer, exchange, documents[i], i);
            var results = new CompareExchangeResult[exchanges.Count];
            for (var i = 0; i < exchanges.Count; i++)
            {
                var command = exchanges[i];
                var result = command.Type == CompareExchangeCommandType.Put
                    ? exchange.Put(command.Key, command.ExpectedIndex, command.Json ?? throw new DocumentValidationException($"Compare exchange command {i} (PUT {command.Key}) has no value."))
                    : exchange.Delete(command.Key, command.ExpectedIndex);
                if (!result.Successful)
                {
                    throw new ClusterTransactionConflictException(
                        $"Failed to execute cluster transaction: compare exchange '{command.Key}' has index {result.Index}, not the expected {command.ExpectedIndex}.")
                    {
                        Key = command.Key,
                    };
                }
                results[i] = result;
            }
            writer.Complete();
            Result = new ClusterBatchResult(index, written, results);
        }

        private WriteResult? Write(DocumentWriter writer, CompareExchangeWriter exchange, DocumentCommand command, int position)
        {
            if (atomicGuards && command.ExpectedChangeVector is null && exchange.CurrentIndex(CompareExchangeEntries.AtomicGuardKey(command.Id)) is { } guard)
            {
                throw new ClusterTransactionConflictException(
                    $"Failed to execute cluster transaction: document '{command.Id}' was written by another cluster-wide transaction (its atomic guard has index {guard}); load it before changing it.")
                {
                    Key = CompareExchangeEntries.AtomicGuardKey(command.Id),
                };
            }
            WriteResult? result;
            try
            {
                result = command.Type == DocumentCommandType.Put
                    ? writer.Put(command.Id, command.Document ?? throw new DocumentValidationException($"Command {position} (PUT) has no document."), command.ExpectedChangeVector)
                    : writer.Delete(command.Id, command.ExpectedChangeVector);
            }
            catch (ConcurrencyException conflict)
            {
                throw new ClusterTransactionConflictException($"Failed to execute cluster transaction: {conflict.Message}", conflict)
                {
                    Key = CompareExchangeEntries.AtomicGuardKey(command.Id),
                };
            }
            if (!atomicGuards)
                return result;
            if (command.Type == DocumentCommandType.Put)
                exchange.SetGuard(result!.Id);
            else
                exchange.RemoveGuard(command.Id);
            return result;
        }
    }
}
