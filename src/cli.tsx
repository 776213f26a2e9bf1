console.log("backroom");
