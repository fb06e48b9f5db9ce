namespace Folio.Server.Databases;

/// <summary>Why a database name was refused.</summary>
public enum DatabaseNameError
{
    /// <summary>The name is acceptable.</summary>
    None,

    /// <summary>The name is empty.</summary>
    Empty,

    /// <summary>The name is longer than <see cref="DatabaseName.MaxLength"/>.</summary>
    TooLong,

    /// <summary>The name holds a character other than ASCII letters, digits, '_', '-' and '.'.</summary>
    InvalidCharacter,

    /// <summary>The name starts with '.', which hides files and could address parents.</summary>
    StartsWithDot,

    /// <summary>The name ends with '.', which Windows drops, so two names would share a directory.</summary>
    EndsWithDot,

    /// <summary>The name contains "..".</summary>
    ContainsDoubleDot,

    /// <summary>The name is reserved for Folio or by an operating system.</summary>
    Reserved,
}
