using Newtonsoft.Json.Linq;

namespace Folio.Client.Linq;

/// <summary>A LINQ query as the server will run it, and how to turn its answer into results.</summary>
internal sealed class TranslatedQuery
{
    public required string Rql { get; init; }

    public required Dictionary<string, JToken> Parameters { get; init; }

    public required ResultOperator Operator { get; init; }

    public required ProjectionKind Projection { get; init; }

    /// <summary>For <see cref="ProjectionKind.SingleField"/>: the field each result holds.</summary>
    public string? SingleField { get; init; }

    /// <summary>Aliases of the projection that take the document's id (filled from <c>@metadata.@id</c>).</summary>
    public required List<string> IdAliases { get; init; }

    public required QueryCustomization Customization { get; init; }

    public QueryStatistics? Statistics { get; init; }
}
