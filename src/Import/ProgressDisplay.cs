using System.Globalization;

namespace Folio.Import;

/// <summary>
/// Draws the progress: on a terminal a bar redrawn in place four times a second; into a file or pipe a
/// plain line every few seconds, so logs stay readable.
/// </summary>
public sealed class ProgressDisplay
{
    private const int BarWidth = 30;

    private readonly ImportProgress _progress;
    private readonly TextWriter _output;
    private readonly bool _interactive;

    /// <summary>Creates the display.</summary>
    /// <param name="progress">The counts to show.</param>
    /// <param name="output">Where to draw.</param>
    /// <param name="interactive">Whether <paramref name="output"/> is a terminal (redraw in place).</param>
    public ProgressDisplay(ImportProgress progress, TextWriter output, bool interactive)
    {
        _progress = progress;
        _output = output;
        _interactive = interactive;
    }

    /// <summary>Draws until <paramref name="stop"/> is cancelled, then draws the final state once.</summary>
    /// <param name="stop">Ends the display.</param>
    /// <returns>Completes after the last draw.</returns>
    public async Task RunAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(_interactive ? TimeSpan.FromMilliseconds(250) : TimeSpan.FromSeconds(5));
        try
        {
            while (await timer.WaitForNextTickAsync(stop).ConfigureAwait(false))
                Draw(final: false);
        }
        catch (OperationCanceledException)
        {
            // Stopped: the import ended.
        }

        Draw(final: true);
    }

    /// <summary>The progress as one line: bar, documents, MB and rates.</summary>
    /// <returns>The line.</returns>
    public string Render()
    {
        double seconds = Math.Max(_progress.Elapsed.TotalSeconds, 1e-3);
        double megaBytes = _progress.Bytes / (1024.0 * 1024.0);
        double fraction = _progress.TotalFileBytes == 0 ? 1 : Math.Min(1, _progress.FileBytesRead / (double)_progress.TotalFileBytes);
        int filled = (int)Math.Round(fraction * BarWidth);
        return string.Create(
            CultureInfo.InvariantCulture,
            $"[{new string('#', filled)}{new string('.', BarWidth - filled)}] {fraction * 100,3:F0}%  {_progress.Documents:N0} docs  {megaBytes:F1} MB  {_progress.Documents / seconds:N0} docs/s  {megaBytes / seconds:F1} MB/s");
    }

    private void Draw(bool final)
    {
        string line = Render();
        if (_interactive)
        {
            _output.Write('\r' + line);
            if (final)
                _output.WriteLine();
        }
        else
        {
            _output.WriteLine(line);
        }

        _output.Flush();
    }
}
