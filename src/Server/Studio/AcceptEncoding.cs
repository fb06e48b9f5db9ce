namespace Folio.Server.Studio;

/// <summary>Reads an <c>Accept-Encoding</c> header far enough to choose between Brotli, gzip and identity.</summary>
public static class AcceptEncoding
{
    /// <summary>
    /// The best coding the client accepts: Brotli before gzip, as it is smaller for text; a coding listed
    /// with <c>q=0</c> is refused, and <c>*</c> stands for any coding not listed.
    /// </summary>
    /// <param name="header">The header's value, or null when absent.</param>
    /// <returns>The coding to answer in.</returns>
    public static StudioEncoding Choose(string? header)
    {
        if (string.IsNullOrEmpty(header))
            return StudioEncoding.Identity;

        bool? brotli = null, gzip = null, any = null;
        foreach (Range part in header.AsSpan().Split(','))
        {
            ReadOnlySpan<char> item = header.AsSpan(part).Trim();
            int semicolon = item.IndexOf(';');
            ReadOnlySpan<char> coding = (semicolon < 0 ? item : item[..semicolon]).Trim();
            bool accepted = semicolon < 0 || !IsZeroQuality(item[(semicolon + 1)..]);
            if (coding.Equals("br", StringComparison.OrdinalIgnoreCase))
                brotli = accepted;
            else if (coding.Equals("gzip", StringComparison.OrdinalIgnoreCase) || coding.Equals("x-gzip", StringComparison.OrdinalIgnoreCase))
                gzip = accepted;
            else if (coding.SequenceEqual("*"))
                any = accepted;
        }

        if (brotli ?? any ?? false)
            return StudioEncoding.Brotli;
        if (gzip ?? any ?? false)
            return StudioEncoding.Gzip;
        return StudioEncoding.Identity;
    }

    private static bool IsZeroQuality(ReadOnlySpan<char> parameters)
    {
        foreach (Range part in parameters.Split(';'))
        {
            ReadOnlySpan<char> parameter = parameters[part].Trim();
            if (parameter.Length < 2 || (parameter[0] is not ('q' or 'Q')) || parameter[1] != '=')
                continue;
            ReadOnlySpan<char> value = parameter[2..].Trim();
            return double.TryParse(value, System.Globalization.NumberStyles.AllowDecimalPoint, System.Globalization.CultureInfo.InvariantCulture, out double q) && q <= 0;
        }

        return false;
    }
}
