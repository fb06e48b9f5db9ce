namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>One written state of a document: <paramref name="Rev"/> names the write that made it, once per run.</summary>
internal sealed record ItemVersion(string Rev, int Tag, int V)
{
    public const int Tags = 5;

    public string TagName => "t" + Tag;

    /// <summary>The document's body as the writers send it.</summary>
    public string ToJson() => $$$"""{"Tag":"{{{TagName}}}","V":{{{V}}},"Rev":"{{{Rev}}}","@metadata":{"@collection":"Items"}}""";
}
