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

    /// <summary>
    /// The status to answer a Raven client with: 503 for a missing database (but for the record's read);
    /// 500 for a missing subscription (a 404 would read to them as an empty answer, not
    /// as the subscription's absence); else the problem's own. Server routes about databases (<c>GET
    /// /admin/databases?name=</c>) keep their 404, which those clients read as "no such database" and answer null.
    /// </summary>
    /// <param name="problem">The problem.</param>
    /// <param name="request">The request it answers.</param>
    /// <returns>The status.</returns>
    public static int Status(in Problem problem, HttpRequest request) =>
        IsMissingDatabaseInside(problem, request) ? StatusCodes.Status503ServiceUnavailable
        : problem.Type == ProblemTypes.SubscriptionNotFound ? StatusCodes.Status500InternalServerError
        : problem.Status;

    /// <summary>Sets the headers the clients look for (<see cref="DatabaseMissingHeader"/>).</summary>
    /// <param name="response">The response, not started.</param>
    /// <param name="problem">The problem.</param>
    public static void SetHeaders(HttpResponse response, in Problem problem)
    {
        if (IsMissingDatabaseInside(problem, response.HttpContext.Request))
            response.Headers[DatabaseMissingHeader] = problem.Detail ?? problem.Title;
    }

    private static bool IsMissingDatabaseInside(in Problem problem, HttpRequest request) =>
        problem.Type == ProblemTypes.DatabaseNotFound
        && !(HttpMethods.IsGet(request.Method) && request.Path.Equals("/admin/databases", StringComparison.OrdinalIgnoreCase));

    /// <summary>Writes <c>Type</c>, <c>Message</c> and <c>Error</c> into the open problem object.</summary>
    /// <param name="writer">Positioned inside the problem object.</param>
    /// <param name="problem">The problem.</param>
    public static void WriteMembers(Utf8JsonWriter writer, in Problem problem)
    {
        string message = problem.Detail is null ? problem.Title : $"{problem.Title}: {problem.Detail}";
        string type = ExceptionType(problem.Type, problem.Status);
        writer.WriteString("Type"u8, type);
        writer.WriteString("Message"u8, message);
        // The clients make most exceptions' text of Error, which the seeds' server fills with the exception as text,
        // its type first; a 409's text is Error alone, as a concurrency message.
        writer.WriteString("Error"u8, problem.Status == StatusCodes.Status409Conflict ? message : $"{type}: {message}");
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
        ProblemTypes.SubscriptionNotFound => "Raven.Client.Exceptions.Documents.Subscriptions.SubscriptionDoesNotExistException",
        _ when status == StatusCodes.Status400BadRequest => "Raven.Client.Exceptions.BadRequestException",
        _ => "Raven.Client.Exceptions.RavenException",
    };
}
