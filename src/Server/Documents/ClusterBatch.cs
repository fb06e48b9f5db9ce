using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>
/// A <c>bulk_docs</c> batch the seeds' system's clients send as a cluster-wide transaction: PUT, DELETE,
/// <c>CompareExchangePUT</c> and <c>CompareExchangeDELETE</c> commands in one transaction that takes one new
/// compare-exchange index (answered as <c>TransactionIndex</c>). Unless the request says
/// <c>disableAtomicDocumentWrites=true</c>, each document written keeps an atomic guard, and a document command fails
/// the batch (409, <c>cluster-transaction-conflict</c>) when the document changed since the client loaded it
/// (its <c>OriginalChangeVector</c>), or, for a document the client did not load, when another cluster-wide batch
/// wrote it.
/// </summary>
public static class ClusterBatch
{
    /// <summary>Whether the request keeps atomic guards (it does unless <c>disableAtomicDocumentWrites=true</c>).</summary>
    /// <param name="request">The request.</param>
    /// <returns>True unless the client turned them off.</returns>
    /// <exception cref="FolioHttpException">400 when the parameter is not true or false.</exception>
    public static bool AtomicGuards(HttpRequest request) => QueryParameters.Optional(request, "disableAtomicDocumentWrites") switch
    {
        null or "false" or "False" => true,
        "true" or "True" => false,
        _ => throw QueryParameters.Invalid("'disableAtomicDocumentWrites' must be true or false."),
    };

    /// <summary>Runs the batch; every check passes or nothing is written.</summary>
    /// <param name="database">The database.</param>
    /// <param name="commands">The parsed commands.</param>
    /// <param name="atomicGuards">Whether documents keep atomic guards.</param>
    /// <returns>What the batch wrote.</returns>
    /// <exception cref="FolioHttpException">400 for a PATCH, which a cluster-wide batch does not take.</exception>
    public static Task<ClusterBatchResult> RunAsync(Database database, List<BulkCommand> commands, bool atomicGuards)
    {
        var documents = new List<DocumentCommand>(commands.Count);
        var exchanges = new List<CompareExchangeCommand>();
        for (int i = 0; i < commands.Count; i++)
        {
            BulkCommand command = commands[i];
            if (command.Exchange is { } exchange)
                exchanges.Add(exchange);
            else if (command.Write is { } write)
                documents.Add(atomicGuards ? write with { ExpectedChangeVector = command.OriginalChangeVector ?? write.ExpectedChangeVector } : write);
            else
                throw BulkDocsParser.Invalid($"Command {i}: a cluster-wide transaction takes PUT, DELETE, CompareExchangePUT and CompareExchangeDELETE commands, not PATCH.");
        }

        return database.Store.ClusterBatchAsync(documents, exchanges, atomicGuards);
    }

    /// <summary>
    /// Writes <c>{"Results":[…],"TransactionIndex"}</c>: document results as a single-node batch answers them, and
    /// <c>{"Type","Key","Index"}</c> for each compare-exchange write, in command order.
    /// </summary>
    /// <param name="writer">The writer.</param>
    /// <param name="batch">The commands and what they wrote.</param>
    public static void WriteResults(Utf8JsonWriter writer, (List<BulkCommand> Commands, ClusterBatchResult Result) batch)
    {
        (List<BulkCommand> commands, ClusterBatchResult result) = batch;
        int document = 0;
        int exchange = 0;
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (BulkCommand command in commands)
        {
            if (command.Write is { } write)
            {
                BulkDocsHandler.WriteResult(writer, write, result.Documents[document++]);
                continue;
            }

            CompareExchangeCommand exchangeCommand = command.Exchange!;
            CompareExchangeResult written = result.CompareExchanges[exchange++];
            writer.WriteStartObject();
            writer.WriteString("Type"u8, exchangeCommand.Type == CompareExchangeCommandType.Put ? "CompareExchangePUT"u8 : "CompareExchangeDELETE"u8);
            writer.WriteString("Key"u8, exchangeCommand.Key);
            writer.WriteNumber("Index"u8, written.Index);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteNumber("TransactionIndex"u8, result.TransactionIndex);
        writer.WriteEndObject();
    }
}
