namespace Folio.Server.Security;

/// <summary>Why a caller is not served: a 401, 403 or 429 problem, and for a 429 how long to wait.</summary>
/// <param name="Status">401, 403 or 429.</param>
/// <param name="Title">The problem's title.</param>
/// <param name="Detail">What to do about it; never holds a secret.</param>
/// <param name="Type">The problem type.</param>
/// <param name="RetryAfter">For a 429, time until the client may try again.</param>
public sealed record Refusal(int Status, string Title, string Detail, string Type, TimeSpan RetryAfter = default);
