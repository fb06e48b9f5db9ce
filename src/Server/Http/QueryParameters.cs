using System.Globalization;
using Microsoft.Extensions.Primitives;

namespace Folio.Server.Http;

/// <summary>Reads query-string parameters and answers 400 problems naming the parameter when one is unusable.</summary>
public static class QueryParameters
{
    /// <summary>A parameter that may appear at most once.</summary>
    /// <param name="request">The request.</param>
    /// <param name="name">The parameter's name.</param>
    /// <returns>Its value, or null when absent.</returns>
    /// <exception cref="FolioHttpException">400 when it appears more than once.</exception>
    public static string? Optional(HttpRequest request, string name)
    {
        StringValues values = request.Query[name];
        if (values.Count > 1)
            throw Invalid($"The query parameter '{name}' may appear only once.");
        return values.Count == 0 ? null : values[0];
    }

    /// <summary>A parameter that must appear exactly once.</summary>
    /// <param name="request">The request.</param>
    /// <param name="name">The parameter's name.</param>
    /// <returns>Its value (possibly empty).</returns>
    /// <exception cref="FolioHttpException">400 when it is absent or repeated.</exception>
    public static string Required(HttpRequest request, string name) =>
        Optional(request, name) ?? throw Invalid($"The query parameter '{name}' is required.");

    /// <summary>A non-negative whole number, e.g. <c>start</c>.</summary>
    /// <param name="request">The request.</param>
    /// <param name="name">The parameter's name.</param>
    /// <param name="defaultValue">The value when the parameter is absent.</param>
    /// <returns>The number.</returns>
    /// <exception cref="FolioHttpException">400 when it is not a number from 0 to <see cref="int.MaxValue"/>.</exception>
    public static int NonNegativeInt32(HttpRequest request, string name, int defaultValue)
    {
        string? text = Optional(request, name);
        if (text is null)
            return defaultValue;
        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int value))
            throw Invalid($"The query parameter '{name}' must be a whole number from 0 to {int.MaxValue}; it is '{text}'.");
        return value;
    }

    /// <summary>The 400 problem for a bad parameter.</summary>
    /// <param name="detail">What is wrong, naming the parameter.</param>
    /// <returns>The exception to throw.</returns>
    public static FolioHttpException Invalid(string detail) =>
        new(StatusCodes.Status400BadRequest, "Invalid parameter", detail, ProblemTypes.InvalidParameter);

    /// <summary>A duration given as a TimeSpan (<c>00:00:05</c>) or as milliseconds, up to an hour; 400 otherwise.</summary>
    /// <param name="text">The parameter's value.</param>
    /// <returns>The duration.</returns>
    public static TimeSpan Duration(string text)
    {
        if (TimeSpan.TryParse(text, System.Globalization.CultureInfo.InvariantCulture, out TimeSpan span) && span >= TimeSpan.Zero && span <= TimeSpan.FromHours(1))
            return span;
        if (double.TryParse(text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out double ms) && ms >= 0 && ms <= TimeSpan.FromHours(1).TotalMilliseconds)
            return TimeSpan.FromMilliseconds(ms);
        throw Invalid($"'{text}' is not a duration (use 00:00:05 or a number of milliseconds, up to an hour).");
    }
}
