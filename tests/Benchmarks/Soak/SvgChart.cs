using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Soak;

/// <summary>A line chart as SVG, with axes, a few ticks and a legend: enough to read a soak's trends without a plotting package.</summary>
public static class SvgChart
{
    private const int Width = 800;
    private const int Height = 360;
    private const int Left = 70;
    private const int Right = 180;
    private const int Top = 40;
    private const int Bottom = 50;
    private static readonly string[] Colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf"];

    /// <summary>Draws <paramref name="series"/> against minutes.</summary>
    /// <param name="title">Above the chart.</param>
    /// <param name="unit">The y axis's unit.</param>
    /// <param name="minutes">The x of every point.</param>
    /// <param name="series">Named y values, one per minute (NaN leaves a gap).</param>
    /// <returns>The SVG document.</returns>
    public static string Draw(string title, string unit, IReadOnlyList<double> minutes, IReadOnlyList<(string Name, double[] Values)> series)
    {
        double maxX = minutes.Count == 0 ? 1 : Math.Max(minutes[^1], 1e-9);
        double maxY = 0;
        foreach ((_, double[] values) in series)
        {
            foreach (double v in values)
            {
                if (!double.IsNaN(v))
                    maxY = Math.Max(maxY, v);
            }
        }

        maxY = maxY <= 0 ? 1 : maxY * 1.1;
        var svg = new StringBuilder();
        svg.Append(CultureInfo.InvariantCulture, $"""<svg xmlns="http://www.w3.org/2000/svg" width="{Width}" height="{Height}" font-family="sans-serif" font-size="12">""");
        svg.Append(CultureInfo.InvariantCulture, $"""<rect width="{Width}" height="{Height}" fill="white"/><text x="{Left}" y="22" font-size="15">{Escape(title)}</text>""");
        int plotWidth = Width - Left - Right, plotHeight = Height - Top - Bottom;
        svg.Append(CultureInfo.InvariantCulture, $"""<line x1="{Left}" y1="{Top + plotHeight}" x2="{Left + plotWidth}" y2="{Top + plotHeight}" stroke="black"/><line x1="{Left}" y1="{Top}" x2="{Left}" y2="{Top + plotHeight}" stroke="black"/>""");
        for (int t = 0; t <= 4; t++)
        {
            double y = Top + plotHeight - (t / 4.0 * plotHeight);
            double x = Left + (t / 4.0 * plotWidth);
            svg.Append(CultureInfo.InvariantCulture, $"""<line x1="{Left}" y1="{y:0.#}" x2="{Left + plotWidth}" y2="{y:0.#}" stroke="#ddd"/><text x="{Left - 6}" y="{y + 4:0.#}" text-anchor="end">{maxY * t / 4:0.##}</text>""");
            svg.Append(CultureInfo.InvariantCulture, $"""<text x="{x:0.#}" y="{Top + plotHeight + 18}" text-anchor="middle">{maxX * t / 4:0.#}</text>""");
        }

        svg.Append(CultureInfo.InvariantCulture, $"""<text x="{Left + (plotWidth / 2)}" y="{Height - 12}" text-anchor="middle">minutes</text><text x="16" y="{Top + (plotHeight / 2)}" transform="rotate(-90 16 {Top + (plotHeight / 2)})" text-anchor="middle">{Escape(unit)}</text>""");
        for (int s = 0; s < series.Count; s++)
        {
            string color = Colors[s % Colors.Length];
            var points = new StringBuilder();
            for (int i = 0; i < minutes.Count && i < series[s].Values.Length; i++)
            {
                double v = series[s].Values[i];
                if (double.IsNaN(v))
                    continue;
                points.Append(CultureInfo.InvariantCulture, $"{Left + (minutes[i] / maxX * plotWidth):0.#},{Top + plotHeight - (v / maxY * plotHeight):0.#} ");
            }

            svg.Append(CultureInfo.InvariantCulture, $"""<polyline fill="none" stroke="{color}" stroke-width="2" points="{points.ToString().TrimEnd()}"/>""");
            svg.Append(CultureInfo.InvariantCulture, $"""<rect x="{Width - Right + 15}" y="{Top + (s * 18)}" width="12" height="12" fill="{color}"/><text x="{Width - Right + 32}" y="{Top + (s * 18) + 10}">{Escape(series[s].Name)}</text>""");
        }

        return svg.Append("</svg>").ToString();
    }

    private static string Escape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);
}
