// Package render draws Malefiz boards as images: state in, PNG out.
//
// A Renderer turns a Scene (a position plus optional overlays: the last
// move's path, the legal destinations labelled like the bot's buttons, the
// candidate squares for a captured barricade, the die, whose turn it is and
// the winner) into an image of the board in the look of the real game: black
// squares joined by lines on a warm yellow ground, the barricades' starting
// squares ringed in red, the four houses under their entry squares, and the
// coordinates a–q and 1–14 along the edges.
//
// The package is pure: it reads no file, clock or random source (its fonts
// are embedded), and a Renderer is safe for concurrent use. What never changes
// is drawn once per width and cached; each call copies that base layer and
// draws the pieces and overlays on top.
//
// RatingChart and ChanceChart draw line charts (a player's rating over
// time; each seat's chance to win over a game) on a dark card, for
// Discord's dark theme.
//
// Player names belong in the message text: the image shows colours only, and
// each colour also carries a letter (R, G, Y, B) for colour-blind players.
package render
