namespace Folio.Server.Http;

/// <summary>The fields of an RFC 9457 problem+json answer.</summary>
/// <param name="Status">HTTP status code.</param>
/// <param name="Title">Short summary of the kind of problem.</param>
/// <param name="Detail">What went wrong with this request, or null.</param>
/// <param name="Type">URI naming the problem kind (see <see cref="ProblemTypes"/>).</param>
public readonly record struct Problem(int Status, string Title, string? Detail, string Type);
