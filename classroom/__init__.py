"""What both screens share, the Discord bot and the browser lesson: the words in four
languages, the board's and the round's text, a game's settings, the operations a level
practises, the teacher's spreadsheets. It imports the engine and nothing of either screen
(no discord, no aiohttp, no storage), so a lesson never loads the bot to format a line."""
