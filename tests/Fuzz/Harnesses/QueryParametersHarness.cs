using System.Text;
using System.Text.Json;
using Folio.Server.Documents;
using Folio.Server.Http;
using Microsoft.AspNetCore.Http;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// A query's parameters, both kinds. An input starting with <c>?</c> is a URL query string read the way the handlers
/// read theirs (<see cref="QueryParameters"/>, <see cref="PageRequest"/>), refusing with a 400
/// <see cref="FolioHttpException"/>. Any other input is a <c>POST …/queries</c> body,
/// <c>{"Query","QueryParameters","WaitForNonStaleResultsTimeout"}</c>: its parameters are bound while the query compiles
/// (<see cref="RqlHarness"/>'s refusals, plus <see cref="JsonException"/> for a body that is not JSON).
/// </summary>
public static class QueryParametersHarness
{
    private static readonly string[] s_names = ["query", "start", "pageSize", "waitForNonStaleResultsTimeout", "timeout", "id"];

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        try
        {
            if (input.Length > 0 && input[0] == (byte)'?')
                RunQueryString(Encoding.UTF8.GetString(input));
            else
                RunBody(input);
        }
        catch (FolioHttpException e) when (e.StatusCode == 400)
        {
        }
        catch (InvalidOperationException e) when (e.InnerException is System.Text.DecoderFallbackException)
        {
            // A string that is not UTF-8, noticed when read: the server answers it 400 (ExceptionMapper).
        }
    }

    private static void RunQueryString(string text)
    {
        var context = new DefaultHttpContext();
        context.Request.QueryString = new QueryString(text);
        HttpRequest request = context.Request;
        PageRequest.Parse(request, maxPageSize: 1024);
        foreach (string name in s_names)
        {
            if (QueryParameters.Optional(request, name) is { } value)
                QueryParameters.Duration(value);
            QueryParameters.NonNegativeInt32(request, name, defaultValue: 0);
        }

        RqlHarness.RunText(QueryParameters.Required(request, "query"), parameters: null);
    }

    private static void RunBody(byte[] input)
    {
        JsonDocument body;
        try
        {
            body = JsonDocument.Parse(input);
        }
        catch (JsonException)
        {
            return;
        }

        using (body)
        {
            JsonElement root = body.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Query", out JsonElement query) || query.ValueKind != JsonValueKind.String)
                return;
            if (root.TryGetProperty("WaitForNonStaleResultsTimeout", out JsonElement timeout) && timeout.ValueKind == JsonValueKind.String)
                QueryParameters.Duration(timeout.GetString()!);
            JsonElement? parameters = root.TryGetProperty("QueryParameters", out JsonElement bound) && bound.ValueKind == JsonValueKind.Object ? bound : null;
            RqlHarness.RunText(query.GetString()!, parameters);
        }
    }
}
