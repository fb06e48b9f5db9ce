using System.Text.Json;
using Folio.Server.Http;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Problems as the seeds' system's clients read them. Those clients (they send <c>Raven-Client-Version</c>)
/// build their exception from <c>Type</c> (the exception's full name), <c>Message</c> and <c>Error</c>, and learn
/// that a database is missing from a 503 with a <c>Database-Missing</c> header; a 404 reads to them as "no
/// such document". For their requests a problem keeps its own members and adds those.
/// </summary>
public static class RavenClientErrors
{
    /// <summary>The header every request of the seeds' system's clients carries.</summary>
    public const string ClientVersionHeader = "Raven-Client-Version";

    /// <summary>The header that tells those clients a database does not exist.</summary>
    public const string DatabaseMissingHeader = "Database-Missing";

    /// <summary>Whether <paramref name="request"/> comes from one of the seeds' system's clients.</summary>
    /// <param name="request">The request.</param>
    /// <returns>True when it carries <see cref="ClientVersionHeader"/>.</returns>
    public static bool IsRavenClient(HttpRequest request) => request.Headers.ContainsKey(ClientVersionHeader);

    /// <summary>The status to answer a Raven client with: 503 for a missing database, else the problem's own.</summary>
    /// <param name="problem">The problem.</param>
    /// <returns>The status.</returns>
    public static int Status(in Problem problem) =>
        problem.Type == ProblemTypes.DatabaseNotFound ? StatusCodes.Status503ServiceUnavailable : problem.Status;

    /// <summary>Sets the headers the clients look for (<see cref="DatabaseMissingHeader"/>).</summary>
    /// <param name="response">The response, not started.</param>
    /// <param name="problem">The problem.</param>
    public static void SetHeaders(HttpResponse response, in Problem problem)
    {
        if (problem.Type == ProblemTypes.DatabaseNotFound)
            response.Headers[DatabaseMissingHeader] = problem.Detail ?? problem.Title;
    }

    /// <summary>Writes <c>Type</c>, <c>Message</c> and <c>Error</c> into the open problem object.</summary>
    /// <param name="writer">Positioned inside the problem object.</param>
    /// <param name="problem">The problem.</param>
    public static void WriteMembers(Utf8JsonWriter writer, in Problem problem)
    {
        string message = problem.Detail is null ? problem.Title : $"{problem.Title}: {problem.Detail}";
        writer.WriteString("Type"u8, ExceptionType(problem.Type, problem.Status));
        writer.WriteString("Message"u8, message);
        writer.WriteString("Error"u8, message);
    }

    /// <summary>The full name of the exception the seeds' clients make of a problem of <paramref name="type"/> and <paramref name="status"/>.</summary>
    /// <param name="type">The problem type (<see cref="ProblemTypes"/>).</param>
    /// <param name="status">The problem's status.</param>
    /// <returns>The exception's full name, as those clients' dispatchers read it.</returns>
    public static string ExceptionType(string type, int status) => type switch
    {
        ProblemTypes.ScriptError => "Raven.Client.Exceptions.Documents.Patching.JavaScriptException",
        ProblemTypes.ConcurrencyConflict or ProblemTypes.DatabaseExists => "Raven.Client.Exceptions.ConcurrencyException",
        ProblemTypes.ClusterTransactionConflict => "Raven.Client.Exceptions.ClusterTransactionConcurrencyException",
        ProblemTypes.DatabaseNotFound => "Raven.Client.Exceptions.Database.DatabaseDoesNotExistException",
        ProblemTypes.DocumentNotFound => "Raven.Client.Exceptions.Documents.DocumentDoesNotExistException",
        ProblemTypes.IndexNotFound => "Raven.Client.Exceptions.Documents.Indexes.IndexDoesNotExistException",
        ProblemTypes.InvalidQuery => "Raven.Client.Exceptions.InvalidQueryException",
        ProblemTypes.InvalidIndexDefinition => "Raven.Client.Exceptions.Documents.Compilation.IndexCompilationException",
        ProblemTypes.IndexesTimeout => "Raven.Client.Exceptions.RavenTimeoutException",
        _ when status == StatusCodes.Status400BadRequest => "Raven.Client.Exceptions.BadRequestException",
        _ => "Raven.Client.Exceptions.RavenException",
    };
}
