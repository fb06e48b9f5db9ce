namespace Folio.Indexing.Definitions;

/// <summary>An index definition that cannot be used; the message names the problem.</summary>
public sealed class IndexDefinitionException(string message) : Exception(message);
